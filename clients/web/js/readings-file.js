// A board's readings file as the app uploads it: CSV with a header (time, latitude, longitude,
// optional position_altitude, then measure columns by the service's names, as `binario
// readings export` writes them) or JSON lines, into UploadReadings' JSON readings.

import { t } from "./i18n.js";

const columns = {
  time: "time", latitude: "latitude", longitude: "longitude", position_altitude: "positionAltitude",
  temperature: "temperature", humidity: "humidity", pressure: "pressure", altitude: "altitude", tvoc: "tvoc", eco2: "eco2",
  "pm0.5": "pm05", pm1: "pm1", "pm2.5": "pm25", pm4: "pm4", pm10: "pm10",
};

/** `{readings, problems}`: each line a reading, or a problem naming its line. */
export function parseReadings(text) {
  const lines = text.split(/\r?\n/).filter((line) => line.trim());
  const readings = [];
  const problems = [];
  if (!lines.length) return { readings, problems: [t("file.empty")] };
  if (lines[0].trim().startsWith("{")) {
    lines.forEach((line, index) => {
      try {
        readings.push(reading(JSON.parse(line), index + 1));
      } catch (error) {
        problems.push(t("file.line", { line: index + 1, problem: error.message }));
      }
    });
    return { readings, problems };
  }
  const header = lines[0].split(",").map((name) => name.trim().toLowerCase());
  const unknown = header.filter((name) => !(name in columns));
  if (unknown.length) return { readings, problems: [t("file.unknownColumns", { columns: unknown.join(", ") })] };
  for (const [index, line] of lines.slice(1).entries()) {
    const cells = line.split(",");
    const row = {};
    header.forEach((name, column) => { if (cells[column] !== undefined && cells[column].trim() !== "") row[name] = cells[column].trim(); });
    try {
      readings.push(reading(row, index + 2));
    } catch (error) {
      problems.push(t("file.line", { line: index + 2, problem: error.message }));
    }
  }
  return { readings, problems };
}

function reading(row) {
  const out = {};
  for (const [name, value] of Object.entries(row)) {
    const key = columns[name] || (Object.values(columns).includes(name) ? name : null);
    if (!key) throw new Error(t("file.unknownField", { name }));
    if (key === "time") {
      const instant = new Date(value);
      if (Number.isNaN(instant.getTime())) throw new Error(t("file.notTime", { value }));
      out.time = instant.toISOString();
    } else {
      const number = Number(value);
      if (!Number.isFinite(number)) throw new Error(t("file.notNumber", { name, value }));
      out[key] = number;
    }
  }
  if (!out.time) throw new Error(t("file.noTime"));
  return out;
}
