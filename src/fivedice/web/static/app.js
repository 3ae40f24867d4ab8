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
    say(line.textContent);
    line.scrollIntoView({ block: "nearest" });
  }

  // The live region (game.html's #announce) reads out what the server put in the board's
  // data-announce: every move since the board shown before, a refusal, whose turn it is.
  function say(text) {
    const announce = document.getElementById("announce");
    if (announce && text) announce.textContent = text;
  }

  function enabled(id) {
    const element = document.getElementById(id);
    return element && !element.disabled ? element : null;
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
    const inBoard = !document.activeElement || document.activeElement === document.body ||
      old.contains(document.activeElement);
    const turnCameBack = old.dataset.state !== "act" && fresh.dataset.state === "act";
    old.replaceWith(fresh);
    say(fresh.dataset.announce || "");
    const error = document.getElementById("error");
    const zero = enabled("zero-yes");
    const same = focused && enabled(focused);
    if (turnCameBack) {
      // The turn came back (say after a CPU's turn played over the stream): the dice come
      // into view, a phone user included, and the Roll button takes the focus.
      const dice = document.getElementById("dice");
      if (dice) dice.scrollIntoView({ block: "nearest" });
    }
    if (zero) zero.focus();
    else if (same && !turnCameBack) same.focus();
    else if (inBoard) {
      // After scoring the button pressed is gone: Roll if it is this visitor's turn, else
      // the heading that says whose turn it is (the dice are right below it).
      const next = enabled("roll") || document.getElementById("turn-h");
      if (next) next.focus();
    }
    if (error) error.scrollIntoView({ block: "center" });
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
  // `seen`: the moves since the version shown are announced.
  function refresh() {
    send(window.location.pathname + "?seen=" + version(), { method: "GET" }, true);
  }

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
    // The game was abandoned: its status changed, not its version. Show it as it ends
    // (the board of a game that is over has no stream: the refresh stops this one).
    source.addEventListener("abandoned", refresh);
  }

  // The waiting room: who joined, live; when the host starts, everyone goes to the game.
  function listenRoom() {
    const room = document.getElementById("room");
    if (!room || !room.dataset.roomEvents || !window.EventSource) return;
    source = new EventSource(room.dataset.roomEvents);
    const seen = async function (event) {
      let data = null;
      try { data = JSON.parse(event.data); } catch (error) { return; }
      // Started: the room's own address sends the holders of its seats to the game (the
      // room's stream is public, so it never names the game).
      if (data.status === "started") { stop(); window.location.assign(window.location.pathname); return; }
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
