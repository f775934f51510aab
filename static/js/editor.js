// The grid editor: paint a map sheet with a thumb or a mouse, then save it.
// The server checks and scores; this file only edits, previews and posts.
"use strict";

(function () {
  const root = document.getElementById("editor");
  const configNode = document.getElementById("editor-config");
  if (!root || !configNode) return;
  const cfg = JSON.parse(configNode.textContent);
  const canChange = root.dataset.canChange === "yes";
  const SIZE = 11;
  const PRINTED = new Set(["^", "#"]);
  const cells = Array.from(root.querySelectorAll(".grid .cell"));
  const ruins = new Set(cfg.ruins);
  // The spaces a waiting Gorgon's gaze may destroy, ringed by the server's markup: kept
  // ringed through every render, until the gaze is done (the page then reloads).
  const gaze = new Set(cells.flatMap((el, i) => (el.classList.contains("target") ? [i] : [])));

  // --- state ------------------------------------------------------------------------------------
  let state = fromServer(cfg);
  let savedAs = asSaved(state); // the sheet as the server holds it: Undo back to it leaves nothing to save
  let revision = cfg.revision;
  // An opened sheet holds the blank print or the season before's map until the player saves it:
  // its button says Save, not Saved, so that nobody takes it for this season's record.
  let everSaved = cfg.everSaved !== false;
  let dirty = false;
  let touched = false; // the player changed something on this page
  const undoStack = [];
  const redoStack = [];
  let brush = "F";

  // A photo's reading (photo.py) opens the editor unsaved, with the squares to check
  // outlined; Undo goes back to the saved map, and only Save makes it count.
  const reading = cfg.reading || null;
  const toCheck = new Set(reading ? reading.check : []);
  if (reading) {
    undoStack.push(clone(state));
    state = fromServer({
      map: reading.map,
      // an unread track starts from the coins the referee can know of (readings.unread_coins)
      coins: reading.coins !== null ? reading.coins : reading.coinsStart != null ? reading.coinsStart : cfg.coins,
      monsters: reading.monsters || cfg.monsters, // the saved tags, and the new monsters' ambush
      heroes: reading.heroes,
    });
    dirty = true;
    // The reading is the answer to the photo's POST: this history entry is the
    // sheet's own page from the start, so that a reload (after the page asks)
    // shows the sheet as saved, as a refused save says it will, and never
    // sends the photo again over a save another phone made meanwhile.
    if (cfg.editUrl) window.history.replaceState(null, "", cfg.editUrl);
  }

  // A photo sent over changes not yet saved (photo.js asks first) keeps them in this tab
  // until the photo is read: when it is refused, the editor comes back with them on the map.
  const STASH = "referee-unsaved:" + (cfg.editUrl || window.location.pathname);
  const kept = takeStash();
  const keptBack = kept !== null && !reading && document.getElementById("photo-error") !== null;
  if (keptBack) {
    undoStack.push(clone(state));
    state = kept;
    dirty = true;
    touched = true;
  }

  function takeStash() {
    try {
      const raw = window.sessionStorage.getItem(STASH);
      window.sessionStorage.removeItem(STASH);
      const stashed = raw ? JSON.parse(raw) : null;
      return stashed && stashed.revision === cfg.revision ? stashed.state : null;
    } catch (err) {
      return null; // no storage here: the refusal comes back with the saved sheet
    }
  }

  function asSaved(s) {
    const tags = Object.entries(s.tags).sort((a, b) => Number(a[0]) - Number(b[0]));
    return JSON.stringify([s.codes.join(""), s.coins, tags, s.heroes]);
  }

  function fromServer(data) {
    const tags = {};
    for (const m of data.monsters || []) {
      for (const [r, c] of m.spaces) tags[r * SIZE + c] = m.ambush;
    }
    const out = {
      codes: data.map.split(""),
      coins: data.coins,
      tags: tags,
      heroes: (data.heroes || []).map((h) => ({ hero: h.hero, at: h.at.slice(), orientation: h.orientation })),
      kills: {}, // hero card -> the monster spaces its pattern destroyed (drawHero)
    };
    // Saved: the destroyed monsters (tagged with their ambush) inside a hero's pattern are
    // taken for its kills, so that a new pattern brings back those it no longer reaches.
    for (const h of out.heroes) {
      const mine = heroPattern(h).filter((j) => out.codes[j] === "X" && out.tags[j] !== undefined);
      if (mine.length) out.kills[h.hero] = mine;
    }
    return out;
  }

  function clone(s) {
    return {
      codes: s.codes.slice(),
      coins: s.coins,
      tags: Object.assign({}, s.tags),
      heroes: s.heroes.map((h) => ({ hero: h.hero, at: h.at.slice(), orientation: h.orientation })),
      kills: Object.fromEntries(Object.entries(s.kills).map(([hero, spaces]) => [hero, spaces.slice()])),
    };
  }

  // The spaces one hero attacks: its card's pattern, turned, from its space. The part of
  // the pattern beyond the map's edge attacks nothing (heroes.attacked_spaces).
  function heroPattern(h) {
    const out = [];
    const offsets = (cfg.heroPatterns[h.hero] || {})[h.orientation] || [];
    for (const [dr, dc] of offsets) {
      const r = h.at[0] + dr;
      const c = h.at[1] + dc;
      if (r >= 0 && r < SIZE && c >= 0 && c < SIZE) out.push(r * SIZE + c);
    }
    return out;
  }

  function attacked() {
    // Every space inside a hero's attack pattern (they stay active all game).
    const out = new Set();
    for (const h of state.heroes) for (const i of heroPattern(h)) out.add(i);
    return out;
  }

  // The hero drawn with a hero card, if the map holds one.
  function placed(card) {
    return state.heroes.find((h) => h.hero === card);
  }

  // Draw the hero of hero card `card` at `at`, or turn it where it stands. A hero card is one
  // hero: the card leaves any other space (and a hero with another card at `at`, though a tap
  // there chooses that card instead: see paint), and the monsters their
  // patterns destroyed on this page live again; then every pattern destroys the monsters in
  // it, at once. Drawn on a space that held no hero (`moved`), the hero moves: its old space
  // is emptied, as a mis-tap put right. Given to a hero already on the map (one a photo read
  // with no card), the old space keeps a hero with no card: both were drawn on the paper.
  function drawHero(card, at, orientation, moved) {
    const gone = state.heroes.filter((h) => h.hero === card || (h.at[0] === at[0] && h.at[1] === at[1]));
    state.heroes = state.heroes.filter((h) => !gone.includes(h));
    for (const h of gone) {
      for (const j of state.kills[h.hero] || []) if (state.codes[j] === "X") state.codes[j] = "M";
      delete state.kills[h.hero];
      const old = h.at[0] * SIZE + h.at[1];
      if (moved && h.hero === card && old !== at[0] * SIZE + at[1] && state.codes[old] === "H") state.codes[old] = ".";
    }
    const hero = { hero: card, at: at.slice(), orientation: orientation };
    state.heroes.push(hero);
    const own = new Set(heroPattern(hero));
    const kills = [];
    for (const j of attacked()) {
      if (state.codes[j] !== "M") continue;
      state.codes[j] = "X";
      if (own.has(j)) kills.push(j);
    }
    state.kills[card] = kills;
  }

  // The page's words come from the server in the reader's language (cfg.text).
  // A counted phrase has a form per plural category ("1 square", "2-4", "5 and more"
  // in Czech), picked here by Intl.PluralRules for the page's language.
  const TEXT = cfg.text || {};
  const plurals = new Intl.PluralRules(document.documentElement.lang || "en");
  function counted(forms, n) {
    const form = forms[plurals.select(n)] || forms.other || "";
    return form.replace("{n}", n);
  }

  // --- drawing ----------------------------------------------------------------------------------
  const CLASS = { "^": "mtn", "#": "waste", ".": "empty" };

  // Each mountain closed in on all four sides earned a coin: warn, as the player
  // paints, when the coin track shows fewer (season.coin_warning says the same on save).
  // Mountains closed in before this season were warned about then, and alone warn no more.
  const knownMountains = new Set(cfg.knownMountains || []);
  // A photo whose coin track could not be read leaves the saved count on the track, and the
  // photo note asks the player to set it: until they do, the line by the coins asks again,
  // in place of any warning about a count nobody has set yet, and Save waits for it.
  let coinsUnset = reading !== null && reading.coins === null && reading.coinsKept == null;

  function surroundedMountains() {
    const out = [];
    state.codes.forEach((code, i) => {
      if (code !== "^") return;
      const r = Math.floor(i / SIZE), c = i % SIZE;
      const around = [[r - 1, c], [r + 1, c], [r, c - 1], [r, c + 1]]
        .filter(([y, x]) => y >= 0 && y < SIZE && x >= 0 && x < SIZE);
      if (around.every(([y, x]) => state.codes[y * SIZE + x] !== ".")) out.push(i);
    });
    return out;
  }

  function renderCoinWarning() {
    const warning = document.getElementById("coin-warning");
    if (!warning) return;
    const right = document.getElementById("coins-right");
    if (right) {
      right.hidden = !coinsUnset;
      right.textContent = counted(TEXT.coinsRight, state.coins);
    }
    if (coinsUnset) {
      warning.hidden = false;
      warning.textContent = TEXT.coinsUnread;
      return;
    }
    const before = cfg.coinsBefore || 0;
    if (state.coins < before) {
      // Coins are only ever filled: fewer than the season before is a slip.
      warning.hidden = false;
      warning.textContent = counted(TEXT.coinsLost, before).replace("%(coins)d", state.coins);
      return;
    }
    const mountains = surroundedMountains();
    const n = Math.min(mountains.length, cfg.track);
    const short = state.coins < n && mountains.some((i) => !knownMountains.has(i));
    warning.hidden = !short;
    warning.textContent = short
      ? counted(TEXT.coinWarning, n).replace("%(coins)d", state.coins)
      : "";
  }

  // A hero is one space, and its hero card says what it attacks. A photo reads the hero's
  // space but not its card: while a hero space has no card, say so by the hero selects,
  // and Score is refused (scoring.py refuses it as well).
  function heroesWithoutCard() {
    if (!cfg.heroesGame) return []; // no hero cards in this game: scoring.py asks for none
    const named = new Set(state.heroes.map((h) => h.at[0] * SIZE + h.at[1]));
    const out = [];
    state.codes.forEach((code, i) => {
      if (code === "H" && !named.has(i)) out.push(i);
    });
    return out;
  }

  function aboutHeroes(forms, spaces) {
    const named = spaces.map((i) =>
      TEXT.where.replace("%(row)d", Math.floor(i / SIZE) + 1).replace("%(col)d", (i % SIZE) + 1),
    );
    return counted(forms, spaces.length).replace("%(spaces)s", named.join("; "));
  }

  function renderHeroWarning() {
    const warning = document.getElementById("hero-warning");
    if (!warning) return;
    const spaces = heroesWithoutCard();
    warning.hidden = spaces.length === 0;
    warning.textContent = spaces.length ? aboutHeroes(TEXT.heroWarning, spaces) : "";
  }

  // The hero card select picks the hero to draw or to turn: once the map holds it, the
  // Pattern select shows its pattern (and turns it: see below), and a line says so,
  // and whether the pattern lies wholly off the map, attacking nothing.
  function renderHeroHint() {
    const card = document.getElementById("hero-card");
    const pattern = document.getElementById("hero-orientation");
    const hint = document.getElementById("hero-hint");
    const off = document.getElementById("hero-off-map");
    if (!card || !pattern || !hint || !off) return;
    const h = placed(card.value);
    if (h && pattern.value !== h.orientation) pattern.value = h.orientation;
    hint.hidden = !h;
    document.getElementById("hero-placed").textContent = h
      ? TEXT.heroPlaced.replace("%(hero)s", cfg.heroNames[card.value] || card.value)
      : "";
    const nothing = h !== undefined && heroPattern(h).length === 0;
    off.hidden = !nothing;
    off.textContent = nothing ? TEXT.heroOffMap : "";
  }

  // Each hero card is drawn once on a map: a card the map holds is not offered to draw
  // again (it says "on the map", and is off), unless it is the one chosen, to turn or move
  // it. A tap on its hero chooses it (paint). The server offers the same (checks.hero_choices).
  function renderHeroChoices() {
    const card = document.getElementById("hero-card");
    if (!card) return;
    for (const option of card.options) {
      const taken = option.value !== card.value && placed(option.value) !== undefined;
      const name = cfg.heroNames[option.value] || option.value;
      option.disabled = taken;
      option.textContent = taken ? TEXT.heroOnMap.replace("%(hero)s", name) : name;
    }
  }

  function render() {
    renderCoinWarning();
    renderHeroWarning();
    renderHeroChoices();
    renderHeroHint();
    const hits = attacked();
    // The space the Gorgon's box names is marked apart from the other rings.
    const gazeChoice = document.getElementById("gorgon-space");
    const chosen = gazeChoice ? Number(gazeChoice.value) : -1;
    // A hero space shows its card's initials, its title the card's name; one with no card, "?".
    const heroAt = {};
    for (const h of state.heroes) heroAt[h.at[0] * SIZE + h.at[1]] = h.hero;
    cells.forEach((el, i) => {
      const code = state.codes[i];
      el.className = "cell t-" + (CLASS[code] || code);
      if (ruins.has(i)) el.classList.add("ruins");
      if (hits.has(i)) el.classList.add("attacked");
      if (solo.has(i) || gaze.has(i)) el.classList.add("target");
      if (i === chosen) el.classList.add("chosen");
      if (toCheck.has(i)) el.classList.add("doubtful");
      const tag = state.tags[i];
      let text = tag && (code === "M" || code === "X") ? cfg.initials[tag] || tag[0] : "";
      let title = "";
      if ((code === "H" || code === "X") && heroAt[i] !== undefined) {
        text = cfg.heroInitials[heroAt[i]] || heroAt[i].slice(0, 2);
        title = cfg.heroNames[heroAt[i]] || heroAt[i];
      } else if (code === "H" && cfg.heroesGame) {
        el.classList.add("nocard");
        text = "?";
        title = TEXT.heroNoCardTitle;
      }
      el.textContent = text;
      if (title) el.title = title;
      else el.removeAttribute("title");
    });
    root.querySelectorAll(".photo-marks [data-i]").forEach((m) => {
      m.hidden = !toCheck.has(Number(m.dataset.i));
    });
    const checkCount = document.getElementById("check-count");
    if (checkCount) checkCount.textContent = counted(TEXT.outlined, toCheck.size);
    // none left to check: the sentence without a count ("Check the map ...")
    const checkSome = document.getElementById("check-some");
    const checkNone = document.getElementById("check-none");
    if (checkSome && checkNone) {
      checkSome.hidden = toCheck.size === 0;
      checkNone.hidden = toCheck.size > 0;
    }
    // The note's requests that the player has answered go (photo_form.html): every hero
    // space has its card, and each monster space the reading left untagged is tagged,
    // or was tapped (with "Not tagged", for a 1x1 that carries no initial) or painted over.
    const unnamedNote = document.getElementById("unnamed-note");
    if (unnamedNote) unnamedNote.hidden = heroesWithoutCard().length === 0;
    // a hero named on an outlined square: once checked, said surely while the hero is there
    root.querySelectorAll("#photo-note [data-doubted]").forEach((p) => {
      const i = Number(p.dataset.doubted);
      const sure = root.querySelector(`#photo-note [data-checked="${i}"]`);
      p.hidden = !toCheck.has(i);
      if (sure) sure.hidden = toCheck.has(i) || state.codes[i] !== "H";
    });
    const untaggedNote = document.getElementById("untagged-note");
    if (untaggedNote) {
      const asked = reading.untagged.filter((i) => toCheck.has(i) && state.codes[i] === "M" && !state.tags[i]);
      untaggedNote.hidden = asked.length === 0;
    }
    const count = document.getElementById("coin-count");
    if (count) count.textContent = state.coins;
    // the count beside Save, marked while an unread track waits for the player's count
    const jump = document.getElementById("coins-jump");
    if (jump) {
      document.getElementById("coins-jump-count").textContent = state.coins;
      jump.classList.toggle("attention", coinsUnset);
    }
    root.querySelectorAll("#coin-track .coin").forEach((b) => {
      b.classList.toggle("filled", Number(b.dataset.n) <= state.coins);
    });
    const undo = document.getElementById("undo");
    const redo = document.getElementById("redo");
    if (undo) undo.disabled = undoStack.length === 0;
    if (redo) redo.disabled = redoStack.length === 0;
    const status = document.getElementById("status");
    const unsaved = dirty || !everSaved;
    if (status) status.textContent = unsaved ? TEXT.notSaved : TEXT.saved;
    const save = document.getElementById("save");
    if (save) {
      save.classList.toggle("attention", dirty);
      save.classList.toggle("clean", !unsaved);
      save.textContent = unsaved ? TEXT.save : TEXT.savedMark;
    }
  }

  function say(text, kind) {
    const banner = document.getElementById("banner");
    banner.textContent = text;
    banner.className = "banner " + (kind || "error");
    banner.hidden = !text;
  }

  function remember(before) {
    touched = true;
    undoStack.push(before || clone(state));
    if (undoStack.length > 200) undoStack.shift();
    redoStack.length = 0;
  }

  function changed() {
    dirty = true;
    render();
  }

  function paint(i, stroke, outlined) {
    const code = state.codes[i];
    if (PRINTED.has(code)) {
      if (!stroke.warned) {
        say(TEXT.printed, "info");
        stroke.warned = true;
      }
      return;
    }
    const r = Math.floor(i / SIZE);
    const c = i % SIZE;
    if (brush === "H") {
      if (stroke.hero) return; // one hero per tap
      stroke.hero = true;
      const card = document.getElementById("hero-card");
      if (!card || !card.value) {
        say(TEXT.noHero, "error"); // no hero card is out: there is no hero to draw
        return;
      }
      // A hero drawn with another card is not drawn over: the tap chooses its card, whose
      // pattern the Pattern select then turns, and which a tap elsewhere moves.
      const there = state.heroes.find((h) => h.at[0] === r && h.at[1] === c);
      if (there && there.hero !== card.value && Array.from(card.options).some((o) => o.value === there.hero)) {
        card.value = there.hero;
        return;
      }
      state.codes[i] = "H";
      delete state.tags[i];
      drawHero(card.value, [r, c], document.getElementById("hero-orientation").value, code !== "H");
      return;
    }
    // A hero destroyed keeps its card and its pattern ("If a hero space is destroyed, that
    // hero's attack pattern remains active"); any other brush over it is a correction.
    if (code === "H" && brush !== "X") state.heroes = state.heroes.filter((h) => !(h.at[0] === r && h.at[1] === c));
    if (brush === "M") {
      const select = document.getElementById("ambush-tag");
      const tag = select.value;
      // An outlined monster that has its ambush is checked by the tap, its ambush kept: the
      // brush's (the latest, by default) would move it to another card unseen. Tapped
      // again, no longer outlined, it takes the brush's ambush.
      const had = state.tags[i];
      if (outlined && had && (code === "M" || code === "X")) {
        if (had !== tag) {
          const option = Array.from(select.options).find((o) => o.value === had);
          say(TEXT.monsterKept.replace("%(ambush)s", option ? option.textContent : had), "info");
        }
        return;
      }
      if (tag) state.tags[i] = tag;
      else delete state.tags[i];
      state.codes[i] = attacked().has(i) ? "X" : "M";
      return;
    }
    if (brush !== "X") delete state.tags[i];
    state.codes[i] = brush;
  }

  // --- pointer input: tap or drag, touch and mouse alike ------------------------------------------
  const board = document.getElementById("board");
  let stroke = null;

  function cellAt(x, y) {
    const el = document.elementFromPoint(x, y);
    if (!el || !el.classList.contains("cell") || !board.contains(el)) return -1;
    return Number(el.dataset.i);
  }

  // What a stroke may change: the squares, their tags and the heroes.
  function drawn(s) {
    return JSON.stringify([s.codes, s.tags, s.heroes]);
  }

  function visit(i) {
    if (i < 0 || stroke.seen.has(i)) return;
    stroke.seen.add(i);
    const outlined = toCheck.delete(i); // a square the player touched is checked
    const was = drawn(state);
    paint(i, stroke, outlined);
    // Undo gets the stroke's first change; a tap that changes nothing (a printed
    // space, a hero with no hero card out) leaves the sheet as saved.
    if (drawn(state) === was) return render();
    if (!stroke.remembered) {
      remember(stroke.before);
      stroke.remembered = true;
    }
    changed();
  }

  if (canChange) {
    board.addEventListener("pointerdown", (e) => {
      const i = cellAt(e.clientX, e.clientY);
      if (i < 0) return;
      e.preventDefault();
      say("");
      stroke = { seen: new Set(), warned: false, hero: false, before: clone(state), remembered: false };
      if (board.setPointerCapture) board.setPointerCapture(e.pointerId);
      visit(i);
    });
    board.addEventListener("pointermove", (e) => {
      if (stroke) visit(cellAt(e.clientX, e.clientY));
    });
    const end = () => {
      const hero = stroke !== null && stroke.hero;
      stroke = null;
      render();
      if (hero) showHeroOptions(); // the line under the selects may have just appeared
    };
    board.addEventListener("pointerup", end);
    board.addEventListener("pointercancel", end);

    root.querySelectorAll(".brush").forEach((b) => {
      b.addEventListener("click", () => {
        brush = b.dataset.brush;
        root.querySelectorAll(".brush").forEach((o) => o.setAttribute("aria-pressed", String(o === b)));
        const monsterOptions = document.getElementById("monster-options");
        const grows = monsterOptions.hidden && brush === "M";
        monsterOptions.hidden = brush !== "M";
        const heroOptions = document.getElementById("hero-options");
        if (heroOptions) heroOptions.hidden = brush !== "H";
        showHeroOptions();
        if (grows) keepMapAboveToolbar();
      });
    });

    // "Which ambush?" grows the toolbar that stays on the screen's foot: the map's last
    // row it would cover scrolls up above it, as long as the map's first row stays on the screen.
    function keepMapAboveToolbar() {
      const bar = root.querySelector(".toolbar").getBoundingClientRect();
      const map = board.getBoundingClientRect();
      const over = map.bottom - bar.top + 4;
      if (map.top >= 0 && map.top < bar.top && over > 0) window.scrollBy(0, Math.min(over, map.top));
    }

    function showHeroOptions() {
      const heroOptions = document.getElementById("hero-options");
      if (heroOptions && !heroOptions.hidden) showAboveToolbar(heroOptions);
    }

    // A new pattern turns the hero already drawn with the chosen hero card, at once (Undo
    // takes it back); before that hero is drawn, it is the pattern the next tap draws.
    const heroCard = document.getElementById("hero-card");
    const heroPatternSelect = document.getElementById("hero-orientation");
    if (heroCard && heroPatternSelect) {
      heroCard.addEventListener("change", () => {
        render();
        showHeroOptions();
      });
      heroPatternSelect.addEventListener("change", () => {
        const h = placed(heroCard.value);
        if (h && h.orientation !== heroPatternSelect.value) {
          remember();
          drawHero(h.hero, h.at, heroPatternSelect.value, false);
          changed();
        } else render();
        showHeroOptions();
      });
    }

    const gazeSelect = document.getElementById("gorgon-space");
    if (gazeSelect) gazeSelect.addEventListener("change", render);

    // The hero card and pattern sit under the map, out of the toolbar that stays on
    // the screen: when that toolbar or the top of the screen hides them, scroll them just into view.
    function showAboveToolbar(el) {
      const bar = root.querySelector(".toolbar").getBoundingClientRect();
      const box = el.getBoundingClientRect();
      // Their foot just above the toolbar where it stays, at the screen's foot (from the
      // page's end, it may stand higher until the page scrolls), from below or from above
      // the screen alike: what shows above them then is the map they are for.
      const foot = window.innerHeight - bar.height - 8;
      if (box.bottom > foot || box.top < 0) window.scrollBy(0, box.bottom - foot);
    }

    // The count beside Save brings the coin track into view, at the screen's foot: the
    // toolbar then rests in its place above it, Save and the coins on the screen together.
    document.getElementById("coins-jump").addEventListener("click", () => {
      document.getElementById("coins").scrollIntoView({ block: "end" });
    });

    const coinsRight = document.getElementById("coins-right");
    if (coinsRight) {
      coinsRight.addEventListener("click", () => {
        coinsUnset = false; // the count kept on the unread track is the player's
        render();
      });
    }

    root.querySelectorAll("#coin-track .coin").forEach((b) => {
      b.addEventListener("click", () => {
        const n = Number(b.dataset.n);
        const answer = coinsUnset;
        coinsUnset = false;
        if (answer && state.coins === n) {
          render(); // the count left on an unread track, tapped: "this is my count"
          return;
        }
        remember();
        // Tapping the last filled coin empties it; any other coin fills the track up to it.
        state.coins = state.coins === n ? n - 1 : n;
        changed();
      });
    });

    const step = (d) => () => {
      const n = Math.min(cfg.track, Math.max(0, state.coins + d));
      coinsUnset = false;
      if (n === state.coins) {
        render(); // − at 0 or + at the end still says "this is my count"
        return;
      }
      remember();
      state.coins = n;
      changed();
    };
    document.getElementById("coin-minus").addEventListener("click", step(-1));
    document.getElementById("coin-plus").addEventListener("click", step(1));

    document.getElementById("undo").addEventListener("click", () => {
      if (!undoStack.length) return;
      redoStack.push(clone(state));
      state = undoStack.pop();
      dirty = asSaved(state) !== savedAs;
      render();
    });
    document.getElementById("redo").addEventListener("click", () => {
      if (!redoStack.length) return;
      undoStack.push(clone(state));
      state = redoStack.pop();
      dirty = asSaved(state) !== savedAs;
      render();
    });
    document.getElementById("save").addEventListener("click", save);
  }

  // --- saving -----------------------------------------------------------------------------------
  const csrf = document.querySelector('meta[name="csrf-token"]').content;

  function payload() {
    const groups = {};
    for (const [i, name] of Object.entries(state.tags)) {
      const code = state.codes[Number(i)];
      if (code !== "M" && code !== "X") continue;
      (groups[name] = groups[name] || []).push([Math.floor(i / SIZE), i % SIZE]);
    }
    return {
      revision: revision,
      map: state.codes.join("").match(/.{11}/g).join("\n"),
      coins: state.coins,
      monsters: Object.entries(groups).map(([ambush, spaces]) => ({ ambush, spaces })),
      heroes: state.heroes,
    };
  }

  async function post(url, body) {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify(body),
      credentials: "same-origin",
    });
    let data = {};
    try {
      data = await response.json();
    } catch (err) {
      data = { error: TEXT.badAnswer.replace("{status}", response.status) };
    }
    return { ok: response.ok, status: response.status, data: data };
  }

  async function save() {
    if (coinsUnset) {
      // The count on the track is the season before's, not the player's: saving it would
      // score a coin track nobody has looked at.
      say(TEXT.coinsUnread, "error");
      const warning = document.getElementById("coin-warning");
      if (warning) warning.scrollIntoView({ block: "center" });
      return;
    }
    const button = document.getElementById("save");
    button.disabled = true;
    try {
      const { ok, status, data } = await post(cfg.saveUrl, payload());
      if (!ok) {
        // Nothing is lost: the page keeps every change until the player decides.
        say(data.error || TEXT.notSavedStatus.replace("{status}", status), "error");
        return;
      }
      revision = data.revision;
      everSaved = true;
      const kills = state.kills; // this page's too: a monster drawn untagged is not known by its tag
      state = fromServer(data);
      state.kills = Object.assign(state.kills, kills);
      savedAs = asSaved(state);
      dirty = false;
      toCheck.clear();
      coinsUnset = false;
      const note = document.getElementById("photo-note");
      if (note) note.hidden = true;
      const refused = document.getElementById("score-refused");
      if (refused) refused.hidden = true;
      say(data.messages.join(" "), "info");
      // what the save did (the heroes' attacks, the Dragon's coins) is said above the map,
      // while Save is at the foot of the screen: brought into sight, or it goes unread
      if (data.messages.length) document.getElementById("banner").scrollIntoView({ block: "nearest" });
      render();
      if (data.gorgon) window.location.reload();
    } catch (err) {
      say(TEXT.offline, "error");
    } finally {
      button.disabled = false;
    }
  }

  // For photo.js: are there changes a new photo would throw away, and leave without asking
  // (keeping them for the page that comes back if the photo is refused).
  let leaving = false;
  window.refereeEditor = {
    unsaved: () => dirty && (touched || !reading),
    leave: () => {
      leaving = true;
      if (!dirty || !touched) return;
      try {
        window.sessionStorage.setItem(STASH, JSON.stringify({ revision: revision, state: clone(state) }));
      } catch (err) {
        // no storage here: as before, the photo replaces them
      }
    },
  };
  if (keptBack) say(TEXT.keptBack, "info");

  window.addEventListener("beforeunload", (e) => {
    if (!dirty || leaving) return;
    e.preventDefault();
    e.returnValue = "";
  });

  // An ambush of this season that acts by its monsters, while it tags none and a
  // monster on the map has no tag (a photo's, where several cards could have drawn
  // it): its effect would be lost, so Score waits (scoring.py refuses it as well).
  function ambushUntold() {
    const tagged = new Set();
    let loose = false;
    state.codes.forEach((code, i) => {
      if (code !== "M" && code !== "X") return;
      if (state.tags[i]) tagged.add(state.tags[i]);
      else if (code === "M") loose = true;
    });
    if (!loose) return null;
    return Object.keys(cfg.untold || {}).find((name) => !tagged.has(name) && !shapeless(name)) || null;
  }

  // The box under Score where the player says an ambush's shape could not be drawn here
  // (its 1x1 monster then carries no initial, so no tag), and whether it is ticked.
  function shapelessBox(name) {
    return Array.from(document.querySelectorAll("label.shapeless")).find((l) => l.dataset.ambush === name);
  }
  function shapeless(name) {
    const box = shapelessBox(name);
    return Boolean(box && box.querySelector("input").checked);
  }

  const scoreForm = document.getElementById("score-form");
  if (scoreForm) {
    scoreForm.addEventListener("submit", (e) => {
      // A hero with no card first: saving alone would not make the map scorable.
      const unnamed = heroesWithoutCard();
      // The Gorgon's gaze next: its box came with the page, and still waits
      // unless a save came back since (a save that leaves it waiting reloads the page).
      const gaze = document.getElementById("gorgon") !== null && revision === cfg.revision;
      const untold = ambushUntold();
      const why = unnamed.length
        ? aboutHeroes(TEXT.heroNoCard, unnamed)
        : untold
          ? cfg.untold[untold]
          : gaze
            ? TEXT.gorgonWaits
            : dirty
              ? TEXT.saveFirst
              : "";
      if (why) {
        e.preventDefault();
        // Beside the button: the page's banner is a screen or more above it on a phone.
        const refused = document.getElementById("score-refused");
        refused.textContent = why;
        refused.hidden = false;
        const box = !unnamed.length && untold ? shapelessBox(untold) : null;
        if (box) box.hidden = false;
        // The sentence, and under it the box it speaks of, on the screen.
        (box || refused).scrollIntoView({ block: "nearest" });
      }
    });
    // Ticked, the box answers the sentence above it.
    scoreForm.querySelectorAll("label.shapeless input").forEach((tick) => {
      tick.addEventListener("change", () => {
        if (tick.checked) document.getElementById("score-refused").hidden = true;
      });
    });
  }

  // --- the solo ambush helper -------------------------------------------------------------------
  let solo = new Set();
  let soloSpaces = [];
  const find = document.getElementById("solo-find");
  if (find && cfg.soloUrl) {
    const answer = document.getElementById("solo-answer");
    const draw = document.getElementById("solo-draw");
    const ambush = document.getElementById("solo-ambush");
    find.addEventListener("click", async () => {
      const { ok, data } = await post(cfg.soloUrl, { map: payload().map, ambush: ambush.value });
      answer.textContent = ok ? data.sentence : data.error;
      soloSpaces = ok ? data.spaces : [];
      solo = new Set(soloSpaces.map(([r, c]) => r * SIZE + c));
      draw.hidden = soloSpaces.length === 0;
      render();
    });
    draw.addEventListener("click", () => {
      remember();
      const hits = attacked();
      for (const [r, c] of soloSpaces) {
        const i = r * SIZE + c;
        state.codes[i] = hits.has(i) ? "X" : "M";
        state.tags[i] = ambush.value;
      }
      solo = new Set();
      soloSpaces = [];
      draw.hidden = true;
      changed();
    });
  }

  render();
})();
