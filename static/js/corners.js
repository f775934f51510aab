// Mark the grid yourself: on a photo the reader refused, the player taps the
// grid's four outer corners; the photo goes back with them, and the reader fits
// the grid to the lines near them instead of searching the whole picture.
// The photo is the page's own (a data URL, at the size the reader reads), so
// nothing is kept on the server between the two requests.
// On a photo of two sheets, the grids the reader found are outlined on it
// (the section's data-grids): a tap inside one marks its four corners, a
// tap inside the other moves the marks there. The neighbour's grid may be
// the larger; the player's may be a few dozen pixels across on the screen.
"use strict";

(function () {
  const section = document.getElementById("mark-grid");
  if (!section || !window.DataTransfer) return; // no way to send the photo back: keep it hidden
  const img = document.getElementById("mark-img");
  const svg = document.getElementById("mark-svg");
  const hint = document.getElementById("mark-hint");
  const form = document.getElementById("mark-form");
  const field = document.getElementById("mark-corners");
  const file = document.getElementById("mark-file");
  const send = document.getElementById("mark-send");
  const clear = document.getElementById("mark-clear");
  const NS = "http://www.w3.org/2000/svg";
  const width = Number(img.getAttribute("width"));
  const height = Number(img.getAttribute("height"));
  const points = []; // [x, y] in the photo's pixels, in the order tapped
  const offers = JSON.parse(section.dataset.grids || "[]"); // grids found, each four [x, y]
  let chosen = -1; // the offer whose corners the points are, if any

  section.hidden = false;

  function photoPoint(event) {
    const box = img.getBoundingClientRect();
    const x = ((event.clientX - box.left) / box.width) * width;
    const y = ((event.clientY - box.top) / box.height) * height;
    return [Math.min(Math.max(x, 0), width), Math.min(Math.max(y, 0), height)];
  }

  // Whether [x, y] lies inside the polygon `quad` (the even-odd rule).
  function inside(quad, x, y) {
    let odd = false;
    for (let i = 0, j = quad.length - 1; i < quad.length; j = i++) {
      const [xi, yi] = quad[i];
      const [xj, yj] = quad[j];
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) odd = !odd;
    }
    return odd;
  }

  function draw() {
    svg.replaceChildren();
    const unit = Math.max(width, height) / 100; // a mark stays the same size on any photo
    offers.forEach((quad, i) => {
      if (i === chosen) return;
      const offer = document.createElementNS(NS, "polygon");
      offer.setAttribute("points", quad.map((p) => p.join(",")).join(" "));
      offer.setAttribute("class", "mark-offer");
      offer.setAttribute("stroke-width", String(unit * 0.35));
      offer.setAttribute("stroke-dasharray", `${unit * 1.2} ${unit * 0.8}`);
      svg.append(offer);
    });
    if (points.length === 4) {
      // the four corners in order round their centre, whatever order they were tapped in
      const cx = points.reduce((a, p) => a + p[0], 0) / 4;
      const cy = points.reduce((a, p) => a + p[1], 0) / 4;
      const round = points.slice().sort((p, q) => Math.atan2(p[1] - cy, p[0] - cx) - Math.atan2(q[1] - cy, q[0] - cx));
      const outline = document.createElementNS(NS, "polygon");
      outline.setAttribute("points", round.map((p) => p.join(",")).join(" "));
      outline.setAttribute("class", "mark-outline");
      outline.setAttribute("stroke-width", String(unit * 0.4));
      svg.append(outline);
    }
    for (const [x, y] of points) {
      const ring = document.createElementNS(NS, "circle");
      ring.setAttribute("cx", String(x));
      ring.setAttribute("cy", String(y));
      ring.setAttribute("r", String(unit * 1.6));
      ring.setAttribute("stroke-width", String(unit * 0.45));
      ring.setAttribute("class", "mark-corner");
      svg.append(ring);
    }
    const done = points.length === 4;
    send.disabled = !done;
    if (chosen >= 0) hint.textContent = hint.dataset.textChosen;
    else if (offers.length && !points.length) hint.textContent = hint.dataset.textChoose;
    else hint.textContent = done ? hint.dataset.textDone : hint.dataset.textMore.replace("{n}", String(points.length));
    field.value = done ? points.map((p) => p.map((v) => v.toFixed(1)).join(",")).join(" ") : "";
  }

  img.addEventListener("click", (event) => {
    const p = photoPoint(event);
    // a grid found: chosen by a tap inside it, before any corner is tapped or
    // instead of the one chosen; a tap inside the chosen one changes nothing
    const offer = offers.findIndex((quad) => inside(quad, p[0], p[1]));
    if (offer >= 0 && (chosen >= 0 || !points.length)) {
      if (offer !== chosen) {
        chosen = offer;
        points.splice(0, points.length, ...offers[offer].map((q) => q.slice()));
        draw();
      }
      return;
    }
    chosen = -1; // a corner tapped by hand: the marks are the player's own
    if (points.length < 4) {
      points.push(p);
    } else {
      // four already: the tap moves the nearest corner there
      let near = 0;
      points.forEach((q, i) => {
        if (Math.hypot(q[0] - p[0], q[1] - p[1]) < Math.hypot(points[near][0] - p[0], points[near][1] - p[1])) near = i;
      });
      points[near] = p;
    }
    draw();
  });

  clear.addEventListener("click", () => {
    points.length = 0;
    chosen = -1;
    draw();
  });

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (points.length !== 4) return;
    const editor = window.refereeEditor;
    if (editor && editor.unsaved() && !window.confirm(form.dataset.textReplace)) return;
    // the page's photo back into the form as a file, as the upload sent it
    const base64 = img.src.slice(img.src.indexOf(",") + 1);
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const list = new DataTransfer();
    list.items.add(new File([bytes], "sheet.jpg", { type: "image/jpeg" }));
    file.files = list.files;
    send.disabled = true;
    hint.textContent = form.dataset.textReading;
    if (editor) editor.leave(); // asked above already
    form.submit();
  });

  // While the photo to mark is on screen, the brushes leave the screen's foot
  // (they stay in the page, under the board): on a small phone the bar would
  // hide a third of the photo, and with it the grid's lower corners.
  if (window.IntersectionObserver) {
    new IntersectionObserver((seen) => {
      document.body.classList.toggle("marking", seen[0].isIntersecting);
    }).observe(img);
  }

  draw();
  // the refusal's sentence, then the photo to mark, in view
  (document.getElementById("photo-error") || section).scrollIntoView({ block: "start" });
})();
