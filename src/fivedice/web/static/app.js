// fivedice: sends the board's forms with fetch and swaps in the board the server rendered.
// No rules live here: the server decides what is legal, what a box is worth and what a CPU
// does. Without JavaScript the same forms post and redirect.
(function () {
  "use strict";
  const FRAGMENT = { "X-Fivedice-Fragment": "1" };
  const CPU_DELAY_MS = 700; // long enough to see each CPU step
  const POLL_MS = 2000; // other players' moves
  let timer = null;
  let busy = false;

  function board() { return document.getElementById("board"); }

  function swap(html) {
    const old = board();
    if (!old) return;
    const focused = document.activeElement && document.activeElement.id;
    const holder = document.createElement("div");
    holder.innerHTML = html;
    const fresh = holder.querySelector("#board");
    if (!fresh) return;
    old.replaceWith(fresh);
    const announce = document.getElementById("announce");
    if (announce) announce.textContent = fresh.dataset.announce || "";
    const again = focused && document.getElementById(focused);
    if (again && !again.disabled) again.focus();
    else if (focused && fresh.contains(document.activeElement) === false) {
      const roll = document.getElementById("roll");
      if (roll && !roll.disabled) roll.focus();
    }
    schedule();
  }

  async function send(url, options) {
    if (busy) return;
    busy = true;
    try {
      const response = await fetch(url, Object.assign({ headers: FRAGMENT, credentials: "same-origin" }, options));
      swap(await response.text());
    } catch (error) {
      window.location.reload();
    } finally {
      busy = false;
    }
  }

  function schedule() {
    clearTimeout(timer);
    const b = board();
    if (!b) return;
    if (b.dataset.cpu === "1") {
      timer = setTimeout(function () {
        const form = document.getElementById("cpu-form");
        if (form) send(form.getAttribute("action"), { method: "POST", body: new FormData(form) });
      }, Number(b.dataset.cpuDelay || CPU_DELAY_MS));
    } else if (b.dataset.poll === "1") {
      timer = setTimeout(function () { send(window.location.pathname, { method: "GET" }); }, POLL_MS);
    }
  }

  document.addEventListener("submit", function (event) {
    const form = event.target;
    if (!form.hasAttribute("data-fragment")) return;
    event.preventDefault();
    // getAttribute: the buttons are named "action", which shadows form.action.
    send(form.getAttribute("action"), { method: "POST", body: new FormData(form, event.submitter) });
  });

  document.addEventListener("click", function (event) {
    const link = event.target.closest("a[data-fragment]");
    if (!link) return;
    event.preventDefault();
    send(link.href, { method: "GET" });
  });

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "select" || tag === "textarea") return;
    const b = board();
    if (!b) return;
    const key = event.key.toLowerCase();
    const target = b.querySelector('[data-key="' + key + '"]');
    if (target && !target.disabled) {
      event.preventDefault();
      target.focus();
      target.click();
    }
  });

  document.addEventListener("DOMContentLoaded", schedule);
})();
