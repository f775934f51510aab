// Photograph my sheet: send the photo as soon as it is taken or chosen.
// A very large photo is first made smaller here (never below 2400 px on its long side,
// well above what the reader uses), so it uploads quickly over a table's Wi-Fi; so is
// one of more pixels than the server takes, however few bytes its file holds.
// Without JavaScript the form still works: choose a file and press "Read this photo".
"use strict";

(function () {
  const form = document.getElementById("photo-form");
  if (!form) return;
  const input = document.getElementById("photo-input");
  const send = document.getElementById("photo-send");
  const status = document.getElementById("photo-status");
  const label = form.querySelector(".photo-button");
  const limit = Number(form.dataset.limit) || 0;
  const STILL_READING_AFTER = 6000; // ms: most photos are read in well under a second
  const SHRINK_ABOVE = 2 * 1024 * 1024; // bytes: a phone's full-size JPEG is 3 to 8 MB
  const LONG_SIDE = 2400; // pixels kept on the long side when shrinking
  const PIXELS = Number(form.dataset.pixels) || 0; // the most the server takes

  send.hidden = true; // the photo goes as soon as it is chosen
  // A photo taken before, from the gallery or files: the camera's input opens the
  // camera alone on a phone. Its file goes through the camera input's steps.
  const pick = document.getElementById("photo-pick");
  const pickLabel = document.getElementById("photo-pick-label");
  if (pick && pickLabel && window.DataTransfer) {
    pick.hidden = false;
    pickLabel.hidden = false;
    pick.addEventListener("change", () => {
      const file = pick.files && pick.files[0];
      pick.value = "";
      if (!file) return;
      const list = new DataTransfer();
      list.items.add(file);
      input.files = list.files;
      input.dispatchEvent(new Event("change"));
    });
  }

  async function smaller(file) {
    // The photo itself when it is small already or cannot be decoded here
    // (the server then says what is wrong with it).
    if (!window.createImageBitmap || !window.DataTransfer) return file;
    try {
      const bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
      // A file of few bytes can hold a picture of more pixels than the server takes:
      // such a picture is made smaller however small its file.
      const tooMany = PIXELS > 0 && bitmap.width * bitmap.height > PIXELS;
      if (file.size <= SHRINK_ABOVE && !tooMany) return file;
      const k = Math.min(1, LONG_SIDE / Math.max(bitmap.width, bitmap.height));
      const canvas = document.createElement("canvas");
      canvas.width = Math.round(bitmap.width * k);
      canvas.height = Math.round(bitmap.height * k);
      canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
      const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.9));
      if (!blob || (blob.size >= file.size && !tooMany)) return file;
      return new File([blob], "sheet.jpg", { type: "image/jpeg" });
    } catch (err) {
      return file;
    }
  }

  function busy(text) {
    status.textContent = text;
    label.classList.add("busy");
    label.setAttribute("aria-disabled", "true");
  }

  function ready() {
    label.classList.remove("busy");
    label.removeAttribute("aria-disabled");
  }
  window.addEventListener("pageshow", ready); // back from the next page: usable again

  input.addEventListener("change", async () => {
    const file = input.files && input.files[0];
    if (!file) return;
    const editor = window.refereeEditor;
    if (editor && editor.unsaved() && !window.confirm(form.dataset.textReplace)) {
      input.value = "";
      return;
    }
    // An earlier season's page while the table has moved on: the sheet photographed
    // now is most likely the later season's, which this page would read as its own.
    if (form.dataset.textEarlier && !window.confirm(form.dataset.textEarlier)) {
      input.value = "";
      return;
    }
    busy(form.dataset.textPreparing);
    const chosen = await smaller(file);
    if (chosen !== file) {
      const list = new DataTransfer();
      list.items.add(chosen);
      input.files = list.files;
    }
    if (limit && chosen.size > limit) {
      ready();
      status.textContent = form.dataset.textTooLarge.replace("{mb}", Math.floor(limit / 1048576));
      input.value = "";
      return;
    }
    busy(form.dataset.textReading);
    if (editor) editor.leave(); // asked above already
    form.submit();
    // A slow connection or a hard photo (one the reader has to search long
    // for its grid) keeps the page waiting: say that it is still at work.
    window.setTimeout(() => {
      if (label.classList.contains("busy")) status.textContent = form.dataset.textStillReading;
    }, STILL_READING_AFTER);
  });
})();
