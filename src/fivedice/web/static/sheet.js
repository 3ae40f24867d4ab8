// The score sheet page: a Print button (the browser's own print works without it).
document.addEventListener("DOMContentLoaded", () => {
  const button = document.getElementById("print-sheet");
  if (button && document.querySelector(".sheet-page")) {
    button.hidden = false;
    button.addEventListener("click", () => window.print());
  }
});
