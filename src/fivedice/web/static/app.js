// fivedice: sends the board's forms with fetch and swaps in the board the server rendered.
// No rules live here: the server decides what is legal, what a box is worth and what a CPU
// does (CPU seats are played on the server). Other players' moves are pushed: the page
// listens to the game's event stream (Server-Sent Events) and, for each new version, asks
// for the board again. Nothing polls. Without JavaScript the same forms post and redirect,
// and a "Reload" link shows the moves of others. No inline script anywhere: the
// Content-Security-Policy allows only this file.
(function () {
  "use strict";
  const FRAGMENT = "X-Fivedice-Fragment";
  let busy = false;
  let again = false; // a new version came while a request was running
  let wanted = -1; // the newest version the stream announced
  let source = null;

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
    if (busy) { if (automatic) again = true; return; }
    busy = true;
    const headers = {};
    headers[FRAGMENT] = "1";
    if (options.method === "POST") headers["X-CSRF-Token"] = csrfToken();
    try {
      const response = await fetch(url, Object.assign({ headers: headers, credentials: "same-origin" }, options));
      swap(await response.text());
    } catch (error) {
      if (!automatic) notice("");
    } finally {
      busy = false;
    }
    if (again) { again = false; if (wanted > version()) refresh(); }
    if (!board() || !board().dataset.events) stop();
  }

  function version() {
    const b = board();
    return b ? Number(b.dataset.version || "-1") : -1;
  }

  // A newer version was saved: show the board as the server renders it for this visitor.
  function refresh() { send(window.location.pathname, { method: "GET" }, true); }

  function stop() { if (source) { source.close(); source = null; } }

  // One stream per page. EventSource reconnects by itself and sends Last-Event-ID, so the
  // server sends every version missed meanwhile.
  function listen() {
    const b = board();
    if (!b || !b.dataset.events || !window.EventSource) return;
    source = new EventSource(b.dataset.events);
    // Only versions newer than the board shown: this page's own action already brought
    // its board back with the form's answer.
    const seen = function (event) {
      wanted = Math.max(wanted, Number(event.lastEventId));
      if (wanted > version()) refresh();
    };
    source.onmessage = seen;
    source.addEventListener("reset", seen);
  }

  // The waiting room: who joined, live; when the host starts, everyone goes to the game.
  function listenRoom() {
    const room = document.getElementById("room");
    if (!room || !room.dataset.roomEvents || !window.EventSource) return;
    source = new EventSource(room.dataset.roomEvents);
    const seen = async function (event) {
      let data = null;
      try { data = JSON.parse(event.data); } catch (error) { return; }
      if (data.game) { stop(); window.location.assign("/g/" + data.game); return; }
      const current = document.getElementById("room");
      if (!current || data.version <= Number(current.dataset.version || "-1")) return;
      try {
        const headers = {};
        headers[FRAGMENT] = "1";
        const response = await fetch(window.location.pathname, { headers: headers, credentials: "same-origin" });
        const holder = document.createElement("div");
        holder.innerHTML = await response.text();
        const fresh = holder.querySelector("#room");
        const now = document.getElementById("room");
        if (fresh && now) { now.replaceWith(fresh); expandInvites(); }
      } catch (error) { /* the next event tries again */ }
    };
    source.onmessage = seen;
    source.addEventListener("reset", seen);
  }

  document.addEventListener("submit", function (event) {
    const form = event.target;
    if (!form.hasAttribute("data-fragment")) return;
    event.preventDefault();
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
    listen();
    listenRoom();
  });
})();
