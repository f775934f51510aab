-- What Base.metadata.create_all made on sqlite before the schema had migrations
-- (referee/store/models.py and sheets.py as of migration 0001); never edit.

CREATE TABLE game_tables (
	id INTEGER NOT NULL,
	code VARCHAR(16) NOT NULL,
	host_token_hash VARCHAR(64) NOT NULL,
	setup JSON NOT NULL,
	deal_version INTEGER NOT NULL,
	taps INTEGER NOT NULL,
	finished BOOLEAN NOT NULL,
	created_at DATETIME NOT NULL,
	updated_at DATETIME NOT NULL,
	PRIMARY KEY (id)
);

CREATE UNIQUE INDEX ix_game_tables_code ON game_tables (code);

CREATE TABLE seats (
	id INTEGER NOT NULL,
	table_id INTEGER NOT NULL,
	"order" INTEGER NOT NULL,
	name VARCHAR(40) NOT NULL,
	token_hash VARCHAR(64),
	PRIMARY KEY (id),
	UNIQUE (table_id, "order"),
	FOREIGN KEY(table_id) REFERENCES game_tables (id) ON DELETE CASCADE
);

CREATE INDEX ix_seats_table_id ON seats (table_id);

CREATE TABLE season_sheets (
	id INTEGER NOT NULL,
	seat_id INTEGER NOT NULL,
	season INTEGER NOT NULL,
	map_text TEXT NOT NULL,
	coins INTEGER NOT NULL,
	monsters JSON NOT NULL,
	heroes JSON NOT NULL,
	effects JSON NOT NULL,
	revision INTEGER NOT NULL,
	updated_at DATETIME NOT NULL,
	PRIMARY KEY (id),
	UNIQUE (seat_id, season),
	FOREIGN KEY(seat_id) REFERENCES seats (id) ON DELETE CASCADE
);

CREATE INDEX ix_season_sheets_seat_id ON season_sheets (seat_id);

CREATE TABLE season_scores (
	id INTEGER NOT NULL,
	seat_id INTEGER NOT NULL,
	season INTEGER NOT NULL,
	first_edict VARCHAR(1) NOT NULL,
	first_card VARCHAR(80) NOT NULL,
	first_stars INTEGER NOT NULL,
	second_edict VARCHAR(1) NOT NULL,
	second_card VARCHAR(80) NOT NULL,
	second_stars INTEGER NOT NULL,
	coins INTEGER NOT NULL,
	monsters INTEGER NOT NULL,
	total INTEGER NOT NULL,
	map_text TEXT NOT NULL,
	detail JSON NOT NULL,
	solo BOOLEAN NOT NULL,
	scored_at DATETIME NOT NULL,
	PRIMARY KEY (id),
	UNIQUE (seat_id, season),
	FOREIGN KEY(seat_id) REFERENCES seats (id) ON DELETE CASCADE
);

CREATE INDEX ix_season_scores_seat_id ON season_scores (seat_id);
