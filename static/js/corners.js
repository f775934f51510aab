// Mark the grid yourself: on a photo the reader refused, the player taps the
// grid's four outer corners; the photo goes back with them, and the reader fits
// the grid to the lines near them instead of searching the whole picture.
// The photo is the page's own (a data URL, at the size the reader reads), so
// nothing is kept on the server between the two requests.
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

  section.hidden = false;

  function photoPoint(event) {
    const box = img.getBoundingClientRect();
    const x = ((event.clientX - box.left) / box.width) * width;
    const y = ((event.clientY - box.top) / box.height) * height;
    return [Math.min(Math.max(x, 0), width), Math.min(Math.max(y, 0), height)];
  }

  function draw() {
    svg.replaceChildren();
    const unit = Math.max(width, height) / 100; // a mark stays the same size on any photo
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
    hint.textContent = done ? hint.dataset.textDone : hint.dataset.textMore.replace("{n}", String(points.length));
    field.value = done ? points.map((p) => p.map((v) => v.toFixed(1)).join(",")).join(" ") : "";
  }

  img.addEventListener("click", (event) => {
    const p = photoPoint(event);
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
