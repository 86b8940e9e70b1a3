/**
 * Field values as text: dates (Word's date-format pictures and the default `May 05, 2025`),
 * numbers, checkboxes and SuperDoc's loose value shapes. Pure functions, no document access.
 */

export interface ParsedDate {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
  second: number;
  hasTime: boolean;
}

const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/**
 * Parses an ISO 8601 date or date-time. A date-time keeps its own wall-clock time (it is shown in
 * its own offset, never converted). Returns null when the text is not a real date.
 */
export function parseIsoDate(text: string): ParsedDate | null {
  const m = ISO_DATE.exec(text.trim());
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const hasTime = m[4] !== undefined;
  const hour = hasTime ? Number(m[4]) : 0;
  const minute = hasTime ? Number(m[5]) : 0;
  const second = m[6] !== undefined ? Number(m[6]) : 0;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  return { year, month, day, hour, minute, second, hasTime };
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Month and weekday names of the languages Word templates most often carry (`w:lid`). */
const NAMES: Record<string, { months: string[]; days: string[] }> = {
  en: {
    months: [
      "January",
      "February",
      "March",
      "April",
      "May",
      "June",
      "July",
      "August",
      "September",
      "October",
      "November",
      "December",
    ],
    days: ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"],
  },
  fr: {
    months: [
      "janvier",
      "février",
      "mars",
      "avril",
      "mai",
      "juin",
      "juillet",
      "août",
      "septembre",
      "octobre",
      "novembre",
      "décembre",
    ],
    days: ["dimanche", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi"],
  },
  de: {
    months: [
      "Januar",
      "Februar",
      "März",
      "April",
      "Mai",
      "Juni",
      "Juli",
      "August",
      "September",
      "Oktober",
      "November",
      "Dezember",
    ],
    days: ["Sonntag", "Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag"],
  },
  es: {
    months: [
      "enero",
      "febrero",
      "marzo",
      "abril",
      "mayo",
      "junio",
      "julio",
      "agosto",
      "septiembre",
      "octubre",
      "noviembre",
      "diciembre",
    ],
    days: ["domingo", "lunes", "martes", "miércoles", "jueves", "viernes", "sábado"],
  },
  it: {
    months: [
      "gennaio",
      "febbraio",
      "marzo",
      "aprile",
      "maggio",
      "giugno",
      "luglio",
      "agosto",
      "settembre",
      "ottobre",
      "novembre",
      "dicembre",
    ],
    days: ["domenica", "lunedì", "martedì", "mercoledì", "giovedì", "venerdì", "sabato"],
  },
  pt: {
    months: [
      "janeiro",
      "fevereiro",
      "março",
      "abril",
      "maio",
      "junho",
      "julho",
      "agosto",
      "setembro",
      "outubro",
      "novembro",
      "dezembro",
    ],
    days: ["domingo", "segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira", "sábado"],
  },
  nl: {
    months: [
      "januari",
      "februari",
      "maart",
      "april",
      "mei",
      "juni",
      "juli",
      "augustus",
      "september",
      "oktober",
      "november",
      "december",
    ],
    days: ["zondag", "maandag", "dinsdag", "woensdag", "donderdag", "vrijdag", "zaterdag"],
  },
  sv: {
    months: [
      "januari",
      "februari",
      "mars",
      "april",
      "maj",
      "juni",
      "juli",
      "augusti",
      "september",
      "oktober",
      "november",
      "december",
    ],
    days: ["söndag", "måndag", "tisdag", "onsdag", "torsdag", "fredag", "lördag"],
  },
  da: {
    months: [
      "januar",
      "februar",
      "marts",
      "april",
      "maj",
      "juni",
      "juli",
      "august",
      "september",
      "oktober",
      "november",
      "december",
    ],
    days: ["søndag", "mandag", "tirsdag", "onsdag", "torsdag", "fredag", "lørdag"],
  },
  nb: {
    months: [
      "januar",
      "februar",
      "mars",
      "april",
      "mai",
      "juni",
      "juli",
      "august",
      "september",
      "oktober",
      "november",
      "desember",
    ],
    days: ["søndag", "mandag", "tirsdag", "onsdag", "torsdag", "fredag", "lørdag"],
  },
  fi: {
    months: [
      "tammikuu",
      "helmikuu",
      "maaliskuu",
      "huhtikuu",
      "toukokuu",
      "kesäkuu",
      "heinäkuu",
      "elokuu",
      "syyskuu",
      "lokakuu",
      "marraskuu",
      "joulukuu",
    ],
    days: ["sunnuntai", "maanantai", "tiistai", "keskiviikko", "torstai", "perjantai", "lauantai"],
  },
  pl: {
    months: [
      "stycznia",
      "lutego",
      "marca",
      "kwietnia",
      "maja",
      "czerwca",
      "lipca",
      "sierpnia",
      "września",
      "października",
      "listopada",
      "grudnia",
    ],
    days: ["niedziela", "poniedziałek", "wtorek", "środa", "czwartek", "piątek", "sobota"],
  },
  ru: {
    months: [
      "января",
      "февраля",
      "марта",
      "апреля",
      "мая",
      "июня",
      "июля",
      "августа",
      "сентября",
      "октября",
      "ноября",
      "декабря",
    ],
    days: ["воскресенье", "понедельник", "вторник", "среда", "четверг", "пятница", "суббота"],
  },
};
NAMES.no = NAMES.nb!;

function namesFor(lang: string | undefined): { months: string[]; days: string[] } {
  const base = (lang ?? "").toLowerCase().split(/[-_]/)[0] ?? "";
  return NAMES[base] ?? NAMES.en!;
}

/** The default picture: `May 05, 2025`. */
export const DEFAULT_DATE_FORMAT = "MMMM dd, yyyy";

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/**
 * Formats a date with a Word date picture (`w:dateFormat`: d dd ddd dddd M MM MMM MMMM yy yyyy
 * h hh H HH m mm s ss AM/PM am/pm, 'quoted literals'). The upper-case day/year spellings many
 * clients send (`DD/MM/YYYY`) mean the same. Anything else is copied.
 */
export function formatDate(date: ParsedDate, picture: string, lang?: string): string {
  const names = namesFor(lang);
  const weekday = new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay();
  const hour12 = date.hour % 12 === 0 ? 12 : date.hour % 12;
  let out = "";
  let i = 0;
  const run = (ch: string) => {
    let n = 0;
    while (picture[i + n] === ch) n++;
    return n;
  };
  while (i < picture.length) {
    const c = picture[i]!;
    if (c === "'") {
      const close = picture.indexOf("'", i + 1);
      if (close < 0) {
        out += picture.slice(i + 1);
        break;
      }
      out += close === i + 1 ? "'" : picture.slice(i + 1, close);
      i = close + 1;
      continue;
    }
    if (/^am\/pm/i.test(picture.slice(i, i + 5))) {
      const upper = picture[i] === "A";
      out += date.hour < 12 ? (upper ? "AM" : "am") : upper ? "PM" : "pm";
      i += 5;
      continue;
    }
    const n = run(c);
    switch (c) {
      case "d":
      case "D":
        out +=
          n === 1
            ? String(date.day)
            : n === 2
              ? pad(date.day)
              : n === 3
                ? names.days[weekday]!.slice(0, 3)
                : names.days[weekday]!;
        break;
      case "M":
        out +=
          n === 1
            ? String(date.month)
            : n === 2
              ? pad(date.month)
              : n === 3
                ? names.months[date.month - 1]!.slice(0, 3)
                : names.months[date.month - 1]!;
        break;
      case "y":
      case "Y":
        out += n <= 2 ? pad(date.year % 100) : pad(date.year, 4);
        break;
      case "H":
        out += n === 1 ? String(date.hour) : pad(date.hour);
        break;
      case "h":
        out += n === 1 ? String(hour12) : pad(hour12);
        break;
      case "m":
        out += n === 1 ? String(date.minute) : pad(date.minute);
        break;
      case "s":
        out += n === 1 ? String(date.second) : pad(date.second);
        break;
      default:
        out += c.repeat(n);
    }
    i += n;
  }
  return out;
}

/** Word's `w:fullDate` value for a date. */
export function fullDateValue(date: ParsedDate): string {
  return `${pad(date.year, 4)}-${pad(date.month)}-${pad(date.day)}T${pad(date.hour)}:${pad(date.minute)}:${pad(date.second)}Z`;
}

/** Text of a `text` value: strings as they are, numbers and booleans written out, null empty. */
export function textOfValue(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return "";
}

const NUMERIC = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;

export function isNumericValue(value: unknown): boolean {
  return (typeof value === "number" && Number.isFinite(value)) || (typeof value === "string" && NUMERIC.test(value));
}

/** A number as given, or with fixed decimals. */
export function formatNumber(value: number | string, decimals?: number): string {
  if (decimals === undefined) return typeof value === "number" ? String(value) : value.trim();
  return Number(value).toFixed(decimals);
}

export function parseCheckbox(value: unknown): boolean | null {
  if (typeof value === "boolean") return value;
  if (typeof value === "string") {
    const v = value.trim().toLowerCase();
    if (v === "true") return true;
    if (v === "false") return false;
  }
  return null;
}
