// fivedice: what makes the board feel alive, and the site installable. Separate from app.js
// (which sends the forms and swaps the board in): this file only watches the board being
// replaced and adds to what it shows; it never decides anything about the game.
//
// - Sound and vibration (off until turned on; the choice is remembered in localStorage):
//   a short beep when the turn comes to this visitor, a little tune on a Yahtzee. The
//   beeps are made with Web Audio, no sound files.
// - A roll moves: the dice that were rolled shake briefly (a re-roll with the same faces
//   too), and the dice whose face changed stay marked until the next move. With
//   `prefers-reduced-motion: reduce` nothing moves: the marks stay, the shaking does not.
// - A Yahtzee is celebrated: a banner for a few seconds, said by screen readers too.
// - One colour per seat: the card's column heads and totals get their seat's class
//   (`seat-n`, coloured by /seats.css, like the chances bar).
// - Copy and Share for invitation and device links (the Web Share API where there is one).
// - The service worker (/sw.js) is registered: static files and an offline page.
(function () {
  "use strict";
  const SOUND_KEY = "fivedice.sound";
  const CHEER_MS = 4000;
  const root = document.documentElement;
  root.classList.add("js");
  if (navigator.share) root.classList.add("can-share");

  function words() {
    const holder = document.getElementById("alive-words");
    return holder ? holder.dataset : {};
  }

  function reducedMotion() {
    return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
  }

  // -- sound and vibration -----------------------------------------------------------------

  function soundOn() {
    try { return window.localStorage.getItem(SOUND_KEY) === "on"; } catch (error) { return false; }
  }

  function setSound(on) {
    try { window.localStorage.setItem(SOUND_KEY, on ? "on" : "off"); } catch (error) { /* private mode */ }
  }

  let audio = null;
  function context() {
    const Audio = window.AudioContext || window.webkitAudioContext;
    if (!Audio) return null;
    if (!audio) audio = new Audio();
    if (audio.state === "suspended") audio.resume();
    return audio;
  }

  // Notes: [frequency in Hz, start in s, length in s], each a soft sine with a quick fade.
  function play(notes) {
    const ctx = context();
    if (!ctx) return;
    const now = ctx.currentTime;
    notes.forEach(function (note) {
      const oscillator = ctx.createOscillator();
      const gain = ctx.createGain();
      oscillator.type = "sine";
      oscillator.frequency.value = note[0];
      gain.gain.setValueAtTime(0.0001, now + note[1]);
      gain.gain.exponentialRampToValueAtTime(0.2, now + note[1] + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + note[1] + note[2]);
      oscillator.connect(gain).connect(ctx.destination);
      oscillator.start(now + note[1]);
      oscillator.stop(now + note[1] + note[2] + 0.05);
    });
  }

  const SIGNALS = {
    turn: { notes: [[660, 0, 0.12], [880, 0.13, 0.16]], buzz: [70] },
    yahtzee: { notes: [[523, 0, 0.12], [659, 0.12, 0.12], [784, 0.24, 0.12], [1047, 0.36, 0.35]],
      buzz: [60, 40, 60, 40, 160] },
  };

  function signal(name) {
    if (!soundOn()) return;
    const what = SIGNALS[name];
    play(what.notes);
    if (navigator.vibrate) navigator.vibrate(what.buzz);
  }

  // The toggle: one button, moved into each new board (app.js replaces #board at every
  // move), beside the board's other switches (Hint, Coach, Undo, under the card): the dice,
  // Roll and the boxes keep the phone's screen.
  let toggle = null;
  function soundToggle(board) {
    if (board.dataset.state === "over") return;
    if (!toggle) {
      const button = document.createElement("button");
      button.type = "button";
      button.id = "sound-toggle";
      button.className = "sound-toggle";
      const show = function () {
        const on = soundOn();
        const said = on ? words().soundOn || "" : words().soundOff || "";
        button.setAttribute("aria-pressed", on ? "true" : "false");
        button.textContent = said;
      };
      button.addEventListener("click", function () {
        setSound(!soundOn());
        show();
        if (soundOn()) signal("turn"); // (this click also lets the page make sounds)
      });
      show();
      toggle = button;
    }
    const row = board.querySelector(".tools");
    if (row && toggle.parentNode !== row) row.appendChild(toggle);
  }

  // -- what the board shows: dice, whose turn ------------------------------------------------

  // The dice as shown: faces (0: not rolled) and held marks, by position.
  function diceOf(board) {
    return Array.prototype.map.call(board.querySelectorAll("#dice .die"), function (die) {
      return {
        // (the wild die's star is its 1)
        face: die.classList.contains("blank") ? 0
          : die.querySelector(".star") ? 1 : die.querySelectorAll("circle").length,
        held: die.classList.contains("held"),
      };
    });
  }

  function digits(element) {
    const found = element ? /\d+/.exec(element.textContent || "") : null;
    return found ? Number(found[0]) : null;
  }

  function snapshot(board) {
    return {
      version: Number(board.dataset.version || "-1"),
      state: board.dataset.state,
      dice: diceOf(board),
      rollsLeft: digits(board.querySelector("#rolls-left")),
    };
  }

  // Was there a roll between the two boards? The rolls left went down (or the dice were
  // blank and are now rolled): a re-roll with the same faces counts too.
  function rolled(before, after) {
    if (!before || !after || after.version <= before.version) return false;
    if (!after.dice.length || after.dice.some(function (die) { return !die.face; })) return false;
    const wasBlank = before.dice.some(function (die) { return !die.face; });
    return wasBlank || (before.rollsLeft !== null && after.rollsLeft !== null &&
      after.rollsLeft < before.rollsLeft);
  }

  function isYahtzee(dice) {
    return dice.length >= 5 && dice[0].face > 0 &&
      dice.every(function (die) { return die.face === dice[0].face; });
  }

  function animateRoll(board, before, after) {
    const still = reducedMotion();
    board.querySelectorAll("#dice .die").forEach(function (die, index) {
      const now = after.dice[index];
      const then = before.dice[index];
      if (!now || now.held) return;
      if (!then || then.face !== now.face) die.classList.add("changed");
      if (!still) die.classList.add("rolling");
    });
  }

  // The live region of this file (the board's own, #announce, is app.js's).
  function say(text) {
    let region = document.getElementById("alive-say");
    if (!region) {
      region = document.createElement("p");
      region.id = "alive-say";
      region.className = "visually-hidden";
      region.setAttribute("role", "status");
      region.setAttribute("aria-live", "polite");
      document.body.appendChild(region);
    }
    region.textContent = "";
    window.setTimeout(function () { region.textContent = text; }, 50);
  }

  let cheerTimer = null;
  function cheer(board) {
    const text = words().yahtzee || "Yahtzee!";
    let banner = document.getElementById("yahtzee-cheer");
    if (banner) banner.remove();
    banner = document.createElement("p");
    banner.id = "yahtzee-cheer";
    banner.className = "yahtzee-cheer" + (reducedMotion() ? "" : " animate");
    banner.setAttribute("aria-hidden", "true"); // (said once, through #alive-say)
    banner.textContent = text;
    board.parentNode.insertBefore(banner, board);
    say(text);
    signal("yahtzee");
    if (cheerTimer !== null) window.clearTimeout(cheerTimer);
    cheerTimer = window.setTimeout(function () { banner.remove(); cheerTimer = null; }, CHEER_MS);
  }

  // -- one colour per seat on the card --------------------------------------------------------

  // The card's first head row has one cell per seat after the "Box" cell (spanning the
  // seat's columns), in seat order, like the chances bar; the Total row the same.
  function colourSeats(board) {
    const card = board.querySelector("table.card");
    if (!card) return;
    const head = card.querySelector("thead tr");
    if (head) {
      Array.prototype.slice.call(head.children, 1).forEach(function (cell, seat) {
        cell.classList.add("seat-" + (seat % 8), "seat-head");
      });
    }
    card.querySelectorAll("tr.grand").forEach(function (row) {
      row.querySelectorAll("td").forEach(function (cell, seat) {
        cell.classList.add("seat-" + (seat % 8));
      });
    });
  }

  // -- watching the board --------------------------------------------------------------------

  let last = null;
  function boardShown(board) {
    const now = snapshot(board);
    colourSeats(board);
    soundToggle(board);
    if (last && now.version > last.version) {
      if (rolled(last, now)) {
        animateRoll(board, last, now);
        if (isYahtzee(now.dice)) cheer(board);
      }
      if (now.state === "act" && last.state !== "act") signal("turn");
    }
    last = now;
  }

  function watchBoard() {
    const board = document.getElementById("board");
    if (!board) return;
    boardShown(board);
    // app.js replaces #board: each new one is looked at once, wherever the page puts it.
    const observer = new MutationObserver(function () {
      const fresh = document.getElementById("board");
      if (fresh && !fresh.dataset.aliveSeen) { fresh.dataset.aliveSeen = "1"; boardShown(fresh); }
    });
    board.dataset.aliveSeen = "1";
    observer.observe(document.body, { childList: true, subtree: true });
  }

  // -- Copy and Share ----------------------------------------------------------------------------

  function linkNear(button) {
    const box = button.closest(".invite-box");
    const input = box ? box.querySelector("input[data-invite]") : null;
    return input ? new URL(input.value, window.location.href).href : "";
  }

  function copied(button, text) {
    const label = button.dataset.label || button.textContent;
    button.dataset.label = label;
    button.textContent = text;
    say(text);
    window.setTimeout(function () { button.textContent = label; }, 2000);
  }

  function copyByHand(button, link) {
    // No clipboard API (plain http on a LAN address): select the field and copy.
    const box = button.closest(".invite-box");
    const input = box ? box.querySelector("input[data-invite]") : null;
    let done = false;
    if (input) {
      input.focus();
      input.select();
      try { done = document.execCommand("copy"); } catch (error) { done = false; }
    }
    copied(button, done ? words().copied || link : words().copyFailed || link);
  }

  document.addEventListener("click", function (event) {
    const target = event.target.closest && event.target.closest("button");
    if (!target) return;
    if (target.classList.contains("copy-link")) {
      const link = linkNear(target);
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(link).then(
          function () { copied(target, words().copied || ""); },
          function () { copyByHand(target, link); });
      } else {
        copyByHand(target, link);
      }
    } else if (target.classList.contains("share-link") && navigator.share) {
      navigator.share({ title: "fivedice", text: words().shareText || "", url: linkNear(target) })
        .catch(function () { /* cancelled: nothing to say */ });
    }
  });

  document.addEventListener("click", function (event) {
    const again = event.target.closest && event.target.closest("[data-reload]");
    if (!again) return;
    event.preventDefault();
    window.location.reload();
  });

  // -- installable -------------------------------------------------------------------------------

  function registerWorker() {
    if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {
      /* (no worker: the site works the same, without the offline page) */
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    watchBoard();
    registerWorker();
  });
})();
