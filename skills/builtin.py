"""Built-in skills that need no index: the current date and time, and unit conversions."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from skills.base import ReadOnlyTool, Skill, SkillContext, SkillError, SkillResult, object_schema

# Factor to the base unit of each kind; aliases are lower-case, matched after normalising.
_UNITS: dict[str, tuple[str, float, tuple[str, ...]]] = {
    "m": ("length", 1.0, ("meter", "meters", "metre", "metres")),
    "km": ("length", 1e3, ("kilometer", "kilometers", "kilometre", "kilometres")),
    "cm": ("length", 1e-2, ("centimeter", "centimeters", "centimetre", "centimetres")),
    "mm": ("length", 1e-3, ("millimeter", "millimeters", "millimetre", "millimetres")),
    "mi": ("length", 1609.344, ("mile", "miles")),
    "yd": ("length", 0.9144, ("yard", "yards")),
    "ft": ("length", 0.3048, ("foot", "feet", "'")),
    "in": ("length", 0.0254, ("inch", "inches", '"')),
    "nmi": ("length", 1852.0, ("nautical mile", "nautical miles")),
    "kg": ("mass", 1.0, ("kilogram", "kilograms", "kilo", "kilos")),
    "g": ("mass", 1e-3, ("gram", "grams")),
    "mg": ("mass", 1e-6, ("milligram", "milligrams")),
    "t": ("mass", 1e3, ("tonne", "tonnes", "metric ton", "metric tons")),
    "lb": ("mass", 0.45359237, ("lbs", "pound", "pounds")),
    "oz": ("mass", 0.028349523125, ("ounce", "ounces")),
    "st": ("mass", 6.35029318, ("stone", "stones")),
    "l": ("volume", 1.0, ("liter", "liters", "litre", "litres")),
    "ml": ("volume", 1e-3, ("milliliter", "milliliters", "millilitre", "millilitres")),
    "m3": ("volume", 1e3, ("m^3", "cubic meter", "cubic meters", "cubic metre")),
    "gal": ("volume", 3.785411784, ("gallon", "gallons", "us gallon", "us gal")),
    "imp gal": ("volume", 4.54609, ("imperial gallon", "imperial gallons", "uk gallon")),
    "qt": ("volume", 0.946352946, ("quart", "quarts")),
    "pt": ("volume", 0.473176473, ("pint", "pints")),
    "cup": ("volume", 0.2365882365, ("cups",)),
    "fl oz": ("volume", 0.0295735295625, ("floz", "fluid ounce", "fluid ounces")),
    "tbsp": ("volume", 0.01478676478125, ("tablespoon", "tablespoons")),
    "tsp": ("volume", 0.00492892159375, ("teaspoon", "teaspoons")),
    "m2": ("area", 1.0, ("m^2", "square meter", "square meters", "sq m")),
    "km2": ("area", 1e6, ("km^2", "square kilometer", "square kilometers", "sq km")),
    "ha": ("area", 1e4, ("hectare", "hectares")),
    "acre": ("area", 4046.8564224, ("acres", "ac")),
    "ft2": ("area", 0.09290304, ("ft^2", "square foot", "square feet", "sq ft")),
    "mi2": ("area", 2589988.110336, ("mi^2", "square mile", "square miles", "sq mi")),
    "m/s": ("speed", 1.0, ("mps", "meters per second", "metres per second")),
    "km/h": ("speed", 1 / 3.6, ("kph", "kmh", "kilometers per hour", "kilometres per hour")),
    "mph": ("speed", 0.44704, ("mi/h", "miles per hour")),
    "kn": ("speed", 1852 / 3600, ("knot", "knots", "kt")),
    "ft/s": ("speed", 0.3048, ("fps", "feet per second")),
    "s": ("time", 1.0, ("sec", "second", "seconds")),
    "ms": ("time", 1e-3, ("millisecond", "milliseconds")),
    "min": ("time", 60.0, ("minute", "minutes")),
    "h": ("time", 3600.0, ("hr", "hour", "hours")),
    "day": ("time", 86400.0, ("d", "days")),
    "week": ("time", 604800.0, ("wk", "weeks")),
    "b": ("data", 1.0, ("byte", "bytes")),
    "kb": ("data", 1e3, ("kilobyte", "kilobytes")),
    "mb": ("data", 1e6, ("megabyte", "megabytes")),
    "gb": ("data", 1e9, ("gigabyte", "gigabytes")),
    "tb": ("data", 1e12, ("terabyte", "terabytes")),
    "kib": ("data", 1024.0, ("kibibyte",)),
    "mib": ("data", 1024.0**2, ("mebibyte",)),
    "gib": ("data", 1024.0**3, ("gibibyte",)),
}
# Temperature is affine, not a factor: (to kelvin, from kelvin).
_Affine = tuple[Callable[[float], float], Callable[[float], float]]
_TEMPERATURES: dict[str, _Affine] = {
    "c": (lambda v: v + 273.15, lambda k: k - 273.15),
    "f": (lambda v: (v - 32) * 5 / 9 + 273.15, lambda k: (k - 273.15) * 9 / 5 + 32),
    "k": (lambda v: v, lambda k: k),
}
_TEMPERATURE_ALIASES = {
    "c": "c", "°c": "c", "degc": "c", "celsius": "c", "centigrade": "c", "degrees celsius": "c",
    "f": "f", "°f": "f", "degf": "f", "fahrenheit": "f", "degrees fahrenheit": "f",
    "k": "k", "kelvin": "k", "kelvins": "k",
}
_ALIASES = {alias: unit for unit, (_, _, names) in _UNITS.items() for alias in (unit, *names)}


def known_units() -> str:
    return ", ".join([*_UNITS, "C", "F", "K"])


def _normal(unit: str) -> str:
    return " ".join(unit.strip().lower().replace("²", "2").replace("³", "3").split())


def convert(value: float, source: str, target: str) -> float:
    """value in source units -> target units; ValueError with a readable reason."""
    a, b = _normal(source), _normal(target)
    if a in _TEMPERATURE_ALIASES or b in _TEMPERATURE_ALIASES:
        if a not in _TEMPERATURE_ALIASES or b not in _TEMPERATURE_ALIASES:
            raise ValueError(f"Cannot convert between '{source}' and '{target}'.")
        to_kelvin = _TEMPERATURES[_TEMPERATURE_ALIASES[a]][0]
        return _TEMPERATURES[_TEMPERATURE_ALIASES[b]][1](to_kelvin(value))
    for given, key in ((source, a), (target, b)):
        if key not in _ALIASES:
            raise ValueError(f"Unknown unit '{given}'.")
    kind_a, factor_a, _ = _UNITS[_ALIASES[a]]
    kind_b, factor_b, _ = _UNITS[_ALIASES[b]]
    if kind_a != kind_b:
        raise ValueError(f"Cannot convert {kind_a} ('{source}') to {kind_b} ('{target}').")
    return value * factor_a / factor_b


class CurrentTime(ReadOnlyTool):
    """The date, time and time zone now, here or in another IANA time zone."""

    name = "get_current_time"
    description = "Get the current date, time, weekday and time zone, here or in another zone."
    parameters = object_schema({
        "timezone": {"type": "string",
                     "description": "IANA name, e.g. Europe/Paris; omit for the user's."},
    }, additionalProperties=False)

    def run(self, arguments: dict[str, Any], context: SkillContext) -> SkillResult:
        zone_name = str(arguments.get("timezone") or "").strip()
        try:
            zone = ZoneInfo(zone_name) if zone_name else None
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise SkillError(f"Unknown time zone '{zone_name}'. Use an IANA name such as "
                             f"Europe/London, America/New_York or Asia/Shanghai.") from exc
        now = datetime.now(zone).astimezone(zone) if zone else datetime.now().astimezone()
        label = zone_name or context.timezone or now.tzname() or "local time"
        offset = now.strftime("%z")
        text = (f"{now:%A %d %B %Y, %H:%M:%S} in {label} "
                f"(UTC{offset[:3]}:{offset[3:]}). ISO 8601: {now.isoformat(timespec='seconds')}")
        return SkillResult(text=text, data={"iso": now.isoformat(), "timezone": label})


class ConvertUnits(ReadOnlyTool):
    """Length, mass, volume, area, speed, time, data size and temperature conversions."""

    name = "convert_units"
    description = ("Convert a quantity between units of length, mass, volume, area, speed, "
                   "time, data size or temperature.")
    parameters = object_schema({
        "value": {"type": "number"},
        "from_unit": {"type": "string", "description": "e.g. mi, kg, °F"},
        "to_unit": {"type": "string", "description": "e.g. km, lb, °C"},
    }, required=["value", "from_unit", "to_unit"], additionalProperties=False)

    def run(self, arguments: dict[str, Any], context: SkillContext) -> SkillResult:
        value = float(arguments["value"])
        source, target = str(arguments["from_unit"]), str(arguments["to_unit"])
        try:
            result = convert(value, source, target)
        except ValueError as exc:
            raise SkillError(f"{exc} Known units: {known_units()}.") from exc
        shown = f"{result:.6g}"
        text = f"{value:g} {source} = {shown} {target}"
        return SkillResult(text=text, data={"value": result, "unit": target})


def builtin_skills() -> list[Skill]:
    """The skills every Hearth has, whatever folders or calendars the user set up."""
    return [CurrentTime(), ConvertUnits()]
