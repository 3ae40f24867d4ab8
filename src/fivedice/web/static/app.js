// fivedice: sends the board's forms with fetch and swaps in the board the server rendered.
// No rules live here: the server decides what is legal, what a box is worth and what a CPU
// does. Without JavaScript the same forms post and redirect. No inline script anywhere: the
// Content-Security-Policy allows only this file.
(function () {
  "use strict";
  const FRAGMENT = "X-Fivedice-Fragment";
  const CPU_DELAY_MS = 700; // long enough to see each CPU step
  const POLL_MS = 2000; // other players' moves
  const MAX_FAILURES = 3; // automatic requests (CPU steps, polling) that fail in a row, then stop
  let timer = null;
  let busy = false;
  let failures = 0;

  function board() { return document.getElementById("board"); }

  function csrfToken() {
    const meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.getAttribute("content") || "" : "";
  }

  // A message above the board when the server answered with something else than a board
  // (a refused form, a database that is down) or could not be reached.
  function notice(text) {
    const b = board();
    if (!b) return;
    let line = document.getElementById("js-notice");
    if (!line) {
      line = document.createElement("p");
      line.id = "js-notice";
      line.className = "error";
      line.setAttribute("role", "alert");
      b.prepend(line);
    }
    line.textContent = text || b.dataset.stuck || "";
  }

  function swap(html) {
    const old = board();
    if (!old) return false;
    const focused = document.activeElement && document.activeElement.id;
    const holder = document.createElement("div");
    holder.innerHTML = html;
    const fresh = holder.querySelector("#board");
    if (!fresh) {
      const said = holder.querySelector(".error");
      notice(said ? said.textContent : "");
      return false;
    }
    old.replaceWith(fresh);
    const announce = document.getElementById("announce");
    if (announce) announce.textContent = fresh.dataset.announce || "";
    const again = focused && document.getElementById(focused);
    if (again && !again.disabled) again.focus();
    else if (focused && fresh.contains(document.activeElement) === false) {
      const roll = document.getElementById("roll");
      if (roll && !roll.disabled) roll.focus();
    }
    return true;
  }

  async function send(url, options, automatic) {
    if (busy) return;
    busy = true;
    const headers = {};
    headers[FRAGMENT] = "1";
    if (options.method === "POST") headers["X-CSRF-Token"] = csrfToken();
    try {
      const response = await fetch(url, Object.assign({ headers: headers, credentials: "same-origin" }, options));
      const swapped = swap(await response.text());
      failures = response.ok && swapped ? 0 : failures + 1;
    } catch (error) {
      failures += 1;
      if (!automatic || failures >= MAX_FAILURES) notice("");
    } finally {
      busy = false;
    }
    schedule();
  }

  function schedule() {
    clearTimeout(timer);
    const b = board();
    if (!b) return;
    if (failures >= MAX_FAILURES) { notice(""); return; } // never retry forever
    if (b.dataset.cpu === "1") {
      timer = setTimeout(function () {
        const form = document.getElementById("cpu-form");
        if (form) send(form.getAttribute("action"), { method: "POST", body: new FormData(form) }, true);
      }, Number(b.dataset.cpuDelay || CPU_DELAY_MS));
    } else if (b.dataset.poll === "1") {
      timer = setTimeout(function () { send(window.location.pathname, { method: "GET" }, true); }, POLL_MS);
    }
  }

  document.addEventListener("submit", function (event) {
    const form = event.target;
    if (!form.hasAttribute("data-fragment")) return;
    event.preventDefault();
    failures = 0; // a person acted: automatic steps may try again
    // getAttribute: the buttons are named "action", which shadows form.action.
    send(form.getAttribute("action"), { method: "POST", body: new FormData(form, event.submitter) }, false);
  });

  document.addEventListener("click", function (event) {
    const link = event.target.closest("a[data-fragment]");
    if (!link) return;
    event.preventDefault();
    send(link.href, { method: "GET" }, false);
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

  // Invite links are relative (the server never trusts the Host header to build them):
  // show them whole, from the address this page was opened at.
  function expandInvites() {
    document.querySelectorAll("input[data-invite]").forEach(function (input) {
      input.value = new URL(input.value, window.location.href).href;
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    expandInvites();
    schedule();
  });
})();
