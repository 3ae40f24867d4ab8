// "At the table": tapping die faces types the dice (the text field works without this).
(function () {
  "use strict";
  const form = document.querySelector("[data-dice-form]");
  if (!form) return;
  const input = form.querySelector("input[name=dice]");
  const pad = form.querySelector("[data-pad]");
  if (!input || !pad) return;
  pad.hidden = false;
  pad.addEventListener("click", function (event) {
    const button = event.target.closest("button");
    if (!button) return;
    if (button.hasAttribute("data-clear")) {
      input.value = "";
      return;
    }
    const face = button.getAttribute("data-face");
    let digits = input.value.replace(/[^1-6]/g, "");
    if (digits.length >= 5) digits = "";  // a sixth tap starts the next entry
    digits += face;
    input.value = digits;
    if (digits.length === 5) form.requestSubmit();
  });
})();
