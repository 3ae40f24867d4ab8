"""Numbers, percentages and dates written as the players of a language write them (Babel).

"231,5" in Dutch, German, French and Spanish, "231.5" in English and Japanese; "45 %" in
French and German; dates "30 nov 2026", "2026/11/30", "Nov 30, 2026". Every front end shows
statistics, high-score dates, resume-list dates and review figures through these, in the
current language (`fivedice.i18n.current_language`) or the one given (the web: the
visitor's).
"""

from __future__ import annotations

from datetime import UTC, date, datetime

from babel import Locale
from babel.dates import format_date as babel_date
from babel.dates import format_time as babel_time
from babel.numbers import format_decimal, format_percent

from fivedice.i18n import current_language


def _locale(language: str | None) -> Locale:
    return Locale.parse(language or current_language())


def number(value: float, digits: int = 0, language: str | None = None) -> str:
    """`value` with exactly `digits` decimals ("1,234.5", "1.234,5", "1 234,5")."""
    pattern = "#,##0" + ("." + "0" * digits if digits > 0 else "")
    return format_decimal(value, format=pattern, locale=_locale(language))


def percent(rate: float, language: str | None = None) -> str:
    """A share (0.45) as a whole percentage: "45%", "45 %"."""
    return format_percent(rate, locale=_locale(language))


def _moment(value: date | datetime | str) -> date | datetime:
    if isinstance(value, str):
        return (
            datetime.fromisoformat(value)
            if "T" in value or " " in value
            else date.fromisoformat(value)
        )
    return value


def day(value: date | datetime | str, language: str | None = None) -> str:
    """A date (or the date of a moment; ISO text is read): "Nov 30, 2026", "2026/11/30"."""
    moment = _moment(value)
    if isinstance(moment, datetime):
        moment = moment.date()
    return babel_date(moment, format="medium", locale=_locale(language))


def moment(value: datetime | str, language: str | None = None) -> str:
    """A date with the time of day, as stored (UTC): "Nov 30, 2026, 4:10 PM", "2026/11/30 16:10"."""
    when = _moment(value)
    if not isinstance(when, datetime):
        return day(when, language)
    locale = _locale(language)
    time = babel_time(when, format="short", tzinfo=when.tzinfo or UTC, locale=locale)
    pattern = str(locale.datetime_formats["medium"])
    return pattern.replace("{1}", day(when.date(), language)).replace("{0}", time)
