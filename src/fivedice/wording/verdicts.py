"""What `fivedice verify` and the web's verify page say about a game record, in words.

One sentence per verdict (`fivedice.core.verify.Verdict`), shared by the CLI and the web so
both say the same: "Verified" only for a signed record whose every roll was committed to;
"Not verifiable" (and why) for dice nobody can check or a record nothing vouches for.
"""

from __future__ import annotations

from collections.abc import Callable

from fivedice.core.errors import N_
from fivedice.core.verify import Verdict
from fivedice.i18n import _
from fivedice.wording.errors import error_text

SERVER_ALONE = N_(
    "No player gave a seed of their own: the server alone chose these dice. The commitment"
    " shows only that they were fixed before the game began, not that nobody chose them."
)


def verdict_lines(
    verdict: Verdict,
    *,
    rolls: int,
    fingerprint: str | None,
    pinned: bool = False,
    refused: BaseException | None = None,
    server_alone: bool = False,
    gettext: Callable[[str], str] | None = None,
) -> list[str]:
    """The verdict's sentences (for `Verdict.ALTERED`: the heading of the list of problems).

    Args:
        verdict: what the check concluded.
        rolls: how many rolls were recomputed.
        fingerprint: the fingerprint of the key that signed the record (None: unsigned).
        pinned: whether the checker named the key to trust (`--key`).
        refused: why the dice could not be checked (a game in progress).
        server_alone: no player gave a seed: the server alone chose the dice.
        gettext: the language (default: the current one's `_`).
    """
    tr = gettext or _
    if verdict is Verdict.ALTERED:
        return [tr(N_("The record does not verify:"))]
    if verdict is Verdict.VERIFIED:
        lines = [
            tr(
                N_(
                    "Verified: the record is unchanged since key {fingerprint} signed it, all rolls"
                    " ({count} in all) are the ones the seeds give, and the server seed matches the"
                    " commitment."
                )
            ).format(fingerprint=fingerprint, count=rolls)
        ]
        if server_alone:
            lines.append(tr(SERVER_ALONE))
        if not pinned:
            lines.append(
                tr(
                    N_(
                        "Check that this is the key the server publishes (/fairness/key), or"
                        " name the key you trust with --key."
                    )
                )
            )
        return lines
    if verdict is Verdict.UNTRUSTED:
        lines = [
            tr(
                N_(
                    "Not verified: the rolls ({count} in all) are the ones the seeds give and the"
                    " record is unchanged since key {fingerprint} signed it, but you did not say"
                    " you trust that key, and anyone can sign an edited record with a key of"
                    " their own. Compare it with the key the server publishes (/fairness/key)"
                    " and name the key you trust with --key (a fingerprint, a file, or the"
                    " address of the server's /fairness/key)."
                )
            ).format(fingerprint=fingerprint, count=rolls)
        ]
        if server_alone:
            lines.append(tr(SERVER_ALONE))
        return lines
    if verdict is Verdict.NOT_YET:
        reason = "" if refused is None else error_text(refused, gettext)
        lines = [tr(N_("Not verifiable yet: {reason}")).format(reason=reason)]
    elif verdict is Verdict.PRACTICE:
        lines = [
            tr(
                N_(
                    "Not verifiable: a practice game. Its dice came from a seed known in advance"
                    " ({count} rolls recomputed from it), so nobody can check that they were not"
                    " chosen."
                )
            ).format(count=rolls)
        ]
    elif verdict is Verdict.OLD_DICE:
        lines = [
            tr(
                N_(
                    "Not verifiable: a game saved before verifiable dice. Its dice came from a seed"
                    " known in advance ({count} rolls recomputed from it), so nobody can check that"
                    " they were not chosen."
                )
            ).format(count=rolls)
        ]
    elif verdict is Verdict.UNSIGNED:
        lines = [
            tr(
                N_(
                    "Not fully verifiable: all rolls ({count} in all) are the ones the seeds give,"
                    " but the record is not signed, so its players, rules, boxes, totals and"
                    " status could have been changed."
                )
            ).format(count=rolls)
        ]
    else:
        lines = [
            tr(
                N_(
                    "Not verifiable: the record carries no proof - no signature, and dice from a"
                    " seed known in advance."
                )
            )
        ]
    if fingerprint is not None:
        lines.append(
            tr(N_("The record is unchanged since key {fingerprint} signed it.")).format(
                fingerprint=fingerprint
            )
        )
    return lines
