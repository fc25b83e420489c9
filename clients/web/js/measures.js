// The measures a board reports, as the air pages offer them: the API's name, the name shown (a
// catalogue key, or a symbol the same in every language), and the values from "good" to "bad"
// the map's colours span.

import { t } from "./i18n.js";

export const measures = [
  ["MEASURE_PM2_5", "PM2.5", [10, 50]], ["MEASURE_PM10", "PM10", [20, 100]], ["MEASURE_PM1", "PM1", [10, 50]],
  ["MEASURE_PM4", "PM4", [15, 75]], ["MEASURE_PM0_5", "PM0.5", [10, 50]], ["MEASURE_TEMPERATURE", "enum.MEASURE_TEMPERATURE", [0, 35]],
  ["MEASURE_HUMIDITY", "enum.MEASURE_HUMIDITY", [30, 90]], ["MEASURE_PRESSURE", "enum.MEASURE_PRESSURE", [990, 1040]], ["MEASURE_TVOC", "TVOC", [0, 500]],
  ["MEASURE_ECO2", "eCO₂", [400, 2000]], ["MEASURE_ALTITUDE", "enum.MEASURE_ALTITUDE", [0, 1000]],
];

/** Each measure's field in a reading (the API's JSON of `Reading`). */
export const readingField = {
  MEASURE_TEMPERATURE: "temperature", MEASURE_HUMIDITY: "humidity", MEASURE_PRESSURE: "pressure", MEASURE_ALTITUDE: "altitude",
  MEASURE_TVOC: "tvoc", MEASURE_ECO2: "eco2", MEASURE_PM0_5: "pm05", MEASURE_PM1: "pm1", MEASURE_PM2_5: "pm25", MEASURE_PM4: "pm4",
  MEASURE_PM10: "pm10",
};

/** A measure's name in the app's language. */
export const measureName = (name) => (name.startsWith("enum.") ? t(name) : name);

/** The measure `value` ("MEASURE_PM10"): [value, name's key, scale]. */
export const measure = (value) => measures.find(([candidate]) => candidate === value) || measures[0];
