// The fares (no sign-in): zone tickets and passes, carnets, and train tickets by distance, as
// ticketing prices them, with how long a validated ticket lasts; buying is in the wallet.

import { publicApi } from "../api.js";
import { h, failure, money } from "../dom.js";
import { t } from "../i18n.js";

/** Ticketing names zone ranges outside Milan's first zone by their count ("2 zones"). */
function zonesText(zones) {
  const count = /^(\d+) zones?$/.exec(zones || "");
  return count ? t("fares.zoneCount", { count: Number(count[1]) }) : zones;
}

/** A table that scrolls on its own on a narrow screen (reachable with the keyboard), never the page. */
function table(id, caption, headings, rows) {
  return h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": caption }, h("table", { id, class: "compact" },
    h("caption", {}, caption),
    h("thead", {}, h("tr", {}, headings.map((heading) => h("th", { scope: "col" }, heading)))),
    h("tbody", {}, rows.map(([first, ...cells]) => h("tr", {}, h("th", { scope: "row" }, first), cells.map((cell) => h("td", {}, cell)))))));
}

export async function show(main) {
  let fares;
  try {
    fares = await publicApi("GET", "/v1/fares");
  } catch (error) {
    main.append(failure(error));
    return;
  }
  main.append(
    h("p", {}, t("fares.intro", { zoneMinutes: fares.zoneRideMinutes || 0, stationMinutes: fares.stationRideMinutes || 0 })),
    table("zone-fares", t("fares.zones"), [t("fares.zonesColumn"), t("fares.single"), t("fares.monthly"), t("fares.yearly")],
      (fares.zoneFares || []).map((fare) => [zonesText(fare.zones), money(fare.single), money(fare.monthlyPass), money(fare.yearlyPass)])),
    table("carnet-fares", t("fares.carnets"), [t("fares.zonesColumn"), t("fares.rides"), t("fares.price")],
      (fares.carnets || []).map((fare) => [zonesText(fare.zones), String(fare.rides), money(fare.price)])),
    table("distance-fares", t("fares.distance"), [t("fares.upTo"), t("fares.second"), t("fares.first"), t("fares.monthly"), t("fares.yearly")],
      (fares.distanceBands || []).map((band) => [t("fares.km", { km: band.upToKm }), money(band.secondClass), money(band.firstClass),
        money(band.monthlyPass), money(band.yearlyPass)])),
    h("p", {}, h("a", { href: "#/wallet" }, t("fares.buy"))));
}
