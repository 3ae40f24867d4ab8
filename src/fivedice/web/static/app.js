// fivedice: sends the board's forms with fetch and swaps in the board the server rendered.
// No rules live here: the server decides what is legal, what a box is worth and what a CPU
// does (CPU seats are played on the server). Other players' moves are pushed: the page
// listens to the game's event stream (Server-Sent Events) and, for each new version, asks
// for the board again. Nothing polls. Without JavaScript the same forms post and redirect,
// and a "Reload" link shows the moves of others. No inline script anywhere: the
// Content-Security-Policy allows only this file.
//
// A page never freezes and never needs a reload to catch up: a refresh that fails is tried
// again (after 0.5, 1, 2, 4 ... up to 15 s, jittered so that a server coming back is not met
// by every page at once), and the page reads its state again whenever it may have missed
// something: the network came back (`online`), the page is shown again
// (`visibilitychange`), its stream (re)connected. While the stream, the server or the
// network is gone, a banner says so (base.html's #connection, a polite live region).
(function () {
  "use strict";
  const FRAGMENT = "X-Fivedice-Fragment";
  const FIRST_RETRY_MS = 500;
  const LAST_RETRY_MS = 15000;
  // A server that stops (a restart) tells its streams to reconnect elsewhere (a "moving"
  // event): for this long the break is expected, and no banner says the connection is lost.
  const MOVING_QUIET_MS = 5000;
  let busy = false;
  let again = false; // a refresh was asked for while a request was running
  let stale = false; // the state must be read again (something may have been missed)
  let wanted = -1; // the newest version the stream announced
  let stream = null; // the page's stream, watched: { reopen, close } (see `watch`)

  // -- the connection: what is gone, the banner, the retries -------------------------------

  const gone = { stream: false, server: false, network: false };

  // The banner: a polite live region that is always in the page, given a line while
  // something is gone and emptied when everything is back.
  function setGone(what, value) {
    if (gone[what] === value) return;
    gone[what] = value;
    const region = document.getElementById("connection");
    if (!region) return;
    const away = gone.stream || gone.server || gone.network;
    const line = region.querySelector(".banner");
    if (away && !line) {
      const banner = document.createElement("p");
      banner.className = "banner";
      banner.textContent = region.dataset.reconnecting || "";
      region.appendChild(banner);
    } else if (!away && line) {
      line.remove();
    }
  }

  // The wait before retry number `attempt` (0, 1, ...): doubling from 0.5 s up to
  // `longest` (15 s unless given), each one anywhere between 75 % and 125 % of that.
  function backoff(attempt, longest) {
    const base = Math.min(longest || LAST_RETRY_MS, FIRST_RETRY_MS * Math.pow(2, attempt));
    return Math.round(base * (0.75 + Math.random() * 0.5));
  }

  // One task tried again with backoff: `later(longest)` after the next wait (once, however
  // often asked; the waits grow to `longest` ms if given), `soon()` at once unless a retry
  // waits already (news pushed while the server fails does not hurry it), `now()` at once
  // (the waits start again from 0.5 s: the network is back), `settled()` when it worked.
  function retrier(task) {
    let attempt = 0;
    let timer = null;
    function cancel() { if (timer !== null) { window.clearTimeout(timer); timer = null; } }
    return {
      later: function (longest) {
        if (timer !== null) return;
        timer = window.setTimeout(function () { timer = null; task(); }, backoff(attempt, longest));
        attempt += 1;
      },
      soon: function () { if (timer === null) task(); },
      now: function () { cancel(); attempt = 0; task(); },
      settled: function () { cancel(); attempt = 0; },
    };
  }

  // The page's stream (`open` makes its EventSource, listeners attached). An error shows the
  // banner; the browser reconnects by itself, except when the server refused the stream
  // (an overloaded or restarting server): then the page opens it again, with backoff. An
  // `open` after an error hides the banner and reads the state again, whatever the stream
  // sends (it may have been refused, or reopened from an older version). A stream told
  // to move (its server stops: "moving", after a `retry:` of about a second) reconnects
  // without the banner, unless that takes longer than MOVING_QUIET_MS.
  function watch(open) {
    let broken = false;
    let closed = false;
    let quietUntil = 0;
    let quietTimer = null;
    const current = { source: null };
    const retries = retrier(connect);
    function loud() {
      if (quietTimer !== null) { window.clearTimeout(quietTimer); quietTimer = null; }
      quietUntil = 0;
    }
    function connect() {
      if (closed) return;
      if (current.source) current.source.close();
      const source = open();
      current.source = source;
      if (!source) return; // (nothing to watch any more: a game that is over)
      source.addEventListener("open", function () {
        if (source !== current.source) return;
        const planned = quietUntil > 0; // (a move: Last-Event-ID brings what was missed)
        retries.settled();
        loud();
        setGone("stream", false);
        if (broken) { broken = false; if (!planned) catchUp(false); }
      });
      source.addEventListener("moving", function () {
        if (source !== current.source) return;
        quietUntil = Date.now() + MOVING_QUIET_MS;
      });
      source.addEventListener("error", function () {
        if (source !== current.source) return;
        broken = true;
        const wait = quietUntil - Date.now();
        if (wait > 0) {
          if (quietTimer === null) {
            quietTimer = window.setTimeout(function () {
              quietTimer = null;
              if (broken) setGone("stream", true);
            }, wait);
          }
        } else {
          setGone("stream", true);
        }
        if (source.readyState === EventSource.CLOSED) retries.later();
      });
    }
    connect();
    return {
      // Opens it again now (the network is back, the page shown again) unless it is open
      // and may be trusted: after the network was gone, a connection may have died unseen.
      reopen: function (always) {
        const healthy = current.source && current.source.readyState === EventSource.OPEN;
        if (always || !healthy) { broken = true; retries.now(); }
      },
      close: function () {
        closed = true;
        loud();
        retries.settled();
        if (current.source) current.source.close();
        setGone("stream", false);
      },
    };
  }

  // Something may have been missed: read the state again (the board, or the room); `now`:
  // at once, even if a retry waits (the network is back, the page shown again).
  function catchUp(now) {
    stale = true;
    if (board()) { if (now) refreshes.now(); else refreshes.soon(); }
    if (document.getElementById("room")) { if (now) roomReads.now(); else roomReads.soon(); }
  }

  window.addEventListener("offline", function () { setGone("network", true); });
  window.addEventListener("online", function () {
    setGone("network", false);
    if (stream) stream.reopen(true);
    catchUp(true);
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState !== "visible") return;
    if (stream) stream.reopen(false);
    catchUp(true);
  });

  // -- the game's board --------------------------------------------------------------------

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
    // Only a focus inside the board is moved (and Roll is focused when this visitor's
    // turn comes back): a spectator's page never moves its focus, the heading included.
    const inBoard = !!document.activeElement && document.activeElement !== document.body &&
      old.contains(document.activeElement);
    const turnCameBack = old.dataset.state !== "act" && fresh.dataset.state === "act";
    old.replaceWith(fresh);
    say(fresh.dataset.announce || "");
    showTurn(fresh);
    const error = document.getElementById("error");
    const zero = enabled("zero-yes");
    const same = focused && enabled(focused);
    const box = fresh.querySelector("td.legal button[data-focus]");
    if (turnCameBack) {
      // The turn came back (say after a CPU's turn played over the stream): the dice come
      // into view, a phone user included, and the Roll button takes the focus.
      const dice = document.getElementById("dice");
      if (dice) dice.scrollIntoView({ block: "nearest" });
    }
    if (zero) zero.focus();
    else if (box && inBoard) box.focus(); // the last roll: a box is all that is left to choose
    else if (same && !turnCameBack) same.focus();
    else if (inBoard || (turnCameBack && document.activeElement === document.body)) {
      // After scoring the button pressed is gone: Roll if it is this visitor's turn, else
      // the heading that says whose turn it is (focused without a ring, see app.css).
      const roll = enabled("roll");
      if (roll) roll.focus();
      else if (inBoard) {
        const heading = document.getElementById("turn-h");
        if (heading) heading.focus({ preventScroll: true });
      }
    }
    if (error) error.scrollIntoView({ block: "center" });
    askAgainLater();
    return true;
  }

  // A coach panel waiting for a table being built (its progress shown, `data-retry`: the
  // longest wait in seconds): the page asks again by itself, through its retrier (waits
  // growing from 0.5 s to that), until the table is ready, never "try again" left to the
  // player. The retrier's wait starts again from 0.5 s once the panel waits no more.
  function coachWaiting() {
    const b = board();
    return b ? b.querySelector("[data-retry]") : null;
  }
  const coachReads = retrier(function () {
    if (coachWaiting()) send(window.location.pathname + "?hint=1&seen=" + version(), { method: "GET" }, true);
  });
  function askAgainLater() {
    const waiting = coachWaiting();
    if (!waiting) { coachReads.settled(); return; }
    coachReads.later(Math.max(1, Number(waiting.dataset.retry) || 5) * 1000);
  }

  // The tab says when this device has a move to make: the board's title ("● Your turn ·
  // fivedice") and a dot on the icon, so that a player in another tab sees it.
  const PLAIN_ICON = "data:image/svg+xml," + encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="2" y="2" width="28"' +
    ' height="28" rx="7" fill="#fff" stroke="#0f5132" stroke-width="3"/><circle cx="16" cy="16"' +
    ' r="4" fill="#0f5132"/></svg>');
  const TURN_ICON = "data:image/svg+xml," + encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="2" y="2" width="28"' +
    ' height="28" rx="7" fill="#fff" stroke="#0f5132" stroke-width="3"/><circle cx="16" cy="16"' +
    ' r="4" fill="#0f5132"/><circle cx="24" cy="8" r="7.5" fill="#f0b429" stroke="#fff"' +
    ' stroke-width="1.5"/></svg>');
  function showTurn(b) {
    if (!b) return;
    if (b.dataset.title) document.title = b.dataset.title;
    const icon = document.querySelector('link[rel="icon"]');
    if (icon) icon.setAttribute("href", b.dataset.state === "act" ? TURN_ICON : PLAIN_ICON);
  }

  // The player's own moves (a form or a link) wait in `moves` while a request is in flight
  // and go one after another, each with the version of the board shown by then: quick taps
  // on the dice are never dropped. A move the server did not answer (the network, a 5xx) is
  // sent again up to MOVE_ATTEMPTS times, the banner up meanwhile; then a line says so.
  const MOVE_ATTEMPTS = 3;
  const moves = [];

  function sendNextMove() {
    const move = moves.shift();
    if (!move) return false;
    if (move.options.body instanceof FormData && move.options.body.has("version")) {
      move.options.body.set("version", String(version()));
    }
    send(move.url, move.options, false, move.attempt);
    return true;
  }

  async function send(url, options, automatic, attempt) {
    if (busy) {
      if (automatic) again = true;
      else moves.push({ url: url, options: options, attempt: 0 });
      return;
    }
    busy = true;
    if (automatic) stale = false; // (this read starts now: it sees all that came before)
    const headers = {};
    headers[FRAGMENT] = "1";
    if (options.method === "POST") headers["X-CSRF-Token"] = csrfToken();
    let failed = false;
    try {
      const response = await fetch(url, Object.assign({ headers: headers, credentials: "same-origin" }, options));
      // An overloaded or restarting server (or a proxy that lost it): a refresh tries again,
      // and so does a move (its version keeps it from being made twice).
      if (response.status >= 500 || response.status === 429) {
        throw new Error("HTTP " + response.status);
      }
      swap(await response.text());
      setGone("server", false);
      refreshes.settled();
    } catch (error) {
      failed = true;
    } finally {
      busy = false;
    }
    if (failed && !automatic) {
      const tries = (attempt || 0) + 1;
      if (tries < MOVE_ATTEMPTS) {
        setGone("server", true);
        moves.unshift({ url: url, options: options, attempt: tries });
        moveRetries.later();
        return;
      }
      moves.length = 0; // (the moves after it were made on a board that is not there)
      notice("");
    }
    if (!failed && !automatic) moveRetries.settled();
    if (!failed && !automatic && sendNextMove()) return;
    if (failed) {
      // Not reached, or not answered: the page reads its board again until it is.
      setGone("server", true);
      stale = true;
      refreshes.later();
    } else if (again || stale) {
      again = false;
      if (stale || wanted > version()) refresh();
    }
    if (!board() || !board().dataset.events) stop();
  }

  function version() {
    const b = board();
    return b ? Number(b.dataset.version || "-1") : -1;
  }

  // A newer version was saved (or one may have been missed): show the board as the server
  // renders it for this visitor. `seen`: the moves since the version shown are announced.
  function refresh() {
    if (!board()) return;
    send(window.location.pathname + "?seen=" + version(), { method: "GET" }, true);
  }
  const refreshes = retrier(refresh);
  // A move the server did not answer goes again after the retrier's wait (after the read
  // in flight, if one is).
  const moveRetries = retrier(function () {
    if (busy) moveRetries.later();
    else sendNextMove();
  });

  function stop() { if (stream) { stream.close(); stream = null; } }

  // One stream per page. EventSource reconnects by itself and sends Last-Event-ID, so the
  // server sends every version missed meanwhile; a stream the page opens again starts
  // after the version of the board shown then.
  function listen() {
    if (!board() || !board().dataset.events || !window.EventSource) return;
    // Only versions newer than the board shown: this page's own action already brought
    // its board back with the form's answer.
    const seen = function (event) {
      wanted = Math.max(wanted, Number(event.lastEventId));
      if (wanted > version()) refreshes.soon();
    };
    stream = watch(function () {
      const b = board();
      if (!b || !b.dataset.events) return null;
      const source = new EventSource(b.dataset.events);
      source.onmessage = seen;
      source.addEventListener("reset", seen);
      // The game was abandoned: its status changed, not its version. Show it as it ends
      // (the board of a game that is over has no stream: the refresh stops this one).
      source.addEventListener("abandoned", refresh);
      return source;
    });
  }

  // -- the waiting room ------------------------------------------------------------------

  let roomBusy = false;
  let roomAgain = false;

  // The room as the server shows it to this visitor now (a started room sends it to the
  // game); tried again with backoff until it answers.
  async function readRoom() {
    if (!document.getElementById("room")) return;
    if (roomBusy) { roomAgain = true; return; }
    roomBusy = true;
    let failed = false;
    try {
      const headers = {};
      headers[FRAGMENT] = "1";
      const response = await fetch(window.location.pathname, { headers: headers, credentials: "same-origin" });
      if (response.status >= 500 || response.status === 429) throw new Error("HTTP " + response.status);
      const path = new URL(response.url, window.location.href).pathname;
      if (response.redirected && path.indexOf("/g/") === 0) {
        stop();
        window.location.assign(response.url);
        return;
      }
      const holder = document.createElement("div");
      holder.innerHTML = await response.text();
      const fresh = holder.querySelector("#room");
      const now = document.getElementById("room");
      if (fresh && now) { now.replaceWith(fresh); expandInvites(); }
      setGone("server", false);
      roomReads.settled();
    } catch (error) {
      failed = true;
    } finally {
      roomBusy = false;
    }
    if (failed) {
      setGone("server", true);
      roomReads.later();
    } else if (roomAgain) {
      roomAgain = false;
      readRoom();
    }
  }
  const roomReads = retrier(readRoom);

  // Who joined, live; when the host starts, everyone goes to the game.
  function listenRoom() {
    const room = document.getElementById("room");
    if (!room || !room.dataset.roomEvents || !window.EventSource) return;
    const url = room.dataset.roomEvents;
    const seen = function (event) {
      let data = null;
      try { data = JSON.parse(event.data); } catch (error) { return; }
      // Started: the room's own address sends the holders of its seats to the game (the
      // room's stream is public, so it never names the game).
      if (data.status === "started") { stop(); window.location.assign(window.location.pathname); return; }
      const current = document.getElementById("room");
      if (!current || data.version <= Number(current.dataset.version || "-1")) return;
      roomReads.soon();
    };
    stream = watch(function () {
      const source = new EventSource(url);
      source.onmessage = seen;
      source.addEventListener("reset", seen);
      return source;
    });
  }

  // -- forms, links and keys ---------------------------------------------------------------

  document.addEventListener("submit", function (event) {
    const form = event.target;
    if (!form.hasAttribute("data-fragment")) return;
    event.preventDefault();
    // getAttribute: the buttons are named "action", which shadows form.action.
    const body = new FormData(form, event.submitter);
    flipDie(event.submitter);
    send(form.getAttribute("action"), { method: "POST", body: body }, false);
  });

  // A die tapped shows held (or released) at once, and its next tap sends the opposite,
  // before the server's board comes back; the board the server sends replaces it.
  function flipDie(button) {
    if (!button || !button.classList.contains("die")) return;
    const words = (button.value || "").split(" ");
    if (words.length !== 2 || (words[0] !== "hold" && words[0] !== "release")) return;
    const held = words[0] === "hold";
    button.value = (held ? "release " : "hold ") + words[1];
    button.classList.toggle("held", held);
    button.setAttribute("aria-pressed", held ? "true" : "false");
  }

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
    showTurn(board());
    askAgainLater();
    if (navigator.onLine === false) setGone("network", true);
    listen();
    listenRoom();
  });
})();
