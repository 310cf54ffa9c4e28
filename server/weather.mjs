// Deterministic fake weather data shared by tools, workflows and scripted models.

const KNOWN = {
  Paris: { temperatureC: 18, conditions: 'partly cloudy', humidity: 64 },
  Berlin: { temperatureC: 15, conditions: 'overcast', humidity: 70 },
  Tokyo: { temperatureC: 24, conditions: 'sunny', humidity: 51 },
  London: { temperatureC: 12, conditions: 'light rain', humidity: 82 },
  Madrid: { temperatureC: 27, conditions: 'clear', humidity: 30 },
  Rome: { temperatureC: 23, conditions: 'sunny', humidity: 48 },
};
const CONDITIONS = ['sunny', 'partly cloudy', 'overcast', 'light rain', 'windy'];

export function weatherFor(city) {
  const known = KNOWN[city];
  if (known) return { city, ...known };
  const h = [...city].reduce((n, c) => (n * 31 + c.charCodeAt(0)) >>> 0, 7);
  return { city, temperatureC: 5 + (h % 25), conditions: CONDITIONS[h % CONDITIONS.length], humidity: 30 + (h % 60) };
}

export function forecastFor(city, days = 3) {
  const { temperatureC, conditions } = weatherFor(city);
  return {
    city,
    forecast: Array.from({ length: days }, (_, i) => ({
      day: i + 1,
      highC: temperatureC + 1 + i,
      lowC: temperatureC - 5 + i,
      conditions,
    })),
  };
}

/** Cities named in a text, in order: known ones, else "in/for <Name>". */
export function citiesIn(text) {
  const found = Object.keys(KNOWN)
    .map(name => [text.indexOf(name), name])
    .filter(([i]) => i >= 0)
    .sort((a, b) => a[0] - b[0])
    .map(([, name]) => name);
  if (found.length) return found;
  return [...text.matchAll(/\b(?:in|for)\s+([A-Z][\p{L}-]+(?:\s[A-Z][\p{L}-]+)?)/gu)].map(m => m[1]);
}

export const cityIn = (text, fallback = 'Paris') => citiesIn(text)[0] ?? fallback;
