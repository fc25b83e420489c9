// The taxi company's fleet (myTaxiService's administrator): the drivers (add, change, delete),
// the taxis (add, change the plate, the seats or the driver, delete), and the city's zones with
// their neighbours and the tariff.

import { api, segment, withQuery } from "../api.js";
import { h, replace, field, form, failure, announce, money, enumText } from "../dom.js";
import { baseMapIn } from "../maps.js";
import { t } from "../i18n.js";

const fullName = (account) => `${account.firstName || ""} ${account.lastName || ""}`.trim() || account.email;

export async function show(main) {
  const driversSection = h("section", { id: "drivers", "aria-labelledby": "drivers-heading" });
  const taxisSection = h("section", { id: "taxis", "aria-labelledby": "taxis-heading" });
  const zonesSection = h("section", { id: "zones-section", "aria-labelledby": "zones-heading" });
  main.append(driversSection, taxisSection, zonesSection);

  async function load() {
    const [accounts, fleet] = await Promise.all([
      api("GET", withQuery("/v1/admin/accounts", { role: "ROLE_DRIVER", page_size: 200 })),
      api("GET", "/v1/admin/taxis"),
    ]);
    return { drivers: accounts.accounts || [], taxis: fleet.taxis || [] };
  }

  async function draw() {
    let data;
    try {
      data = await load();
    } catch (error) {
      main.append(failure(error));
      return;
    }
    const taxiOf = new Map(data.taxis.filter((taxi) => taxi.driverUserId).map((taxi) => [taxi.driverUserId, taxi.code]));
    const driverOptions = [["", t("fleet.noDriver")], ...data.drivers.map((driver) => [driver.userId, `${fullName(driver)} (${driver.email})`])];

    replace(driversSection, h("h2", { id: "drivers-heading" }, t("fleet.drivers")),
      data.drivers.length ? h("ul", { class: "cards", id: "driver-list" }, data.drivers.map((driver) => {
        const item = h("li", { class: "card driver", dataset: { driver: driver.userId } },
          h("h3", {}, fullName(driver)),
          h("p", {}, driver.email, driver.phone ? ` · ${driver.phone}` : ""),
          h("p", {}, taxiOf.has(driver.userId) ? t("fleet.drives", { code: taxiOf.get(driver.userId) }) : t("fleet.noTaxi")),
          h("details", {}, h("summary", {}, t("fleet.change")),
            form(t("fleet.changeDriver", { name: fullName(driver) }), [
              field(t("fleet.firstName"), { name: "firstName", required: true, value: driver.firstName || "" }),
              field(t("fleet.lastName"), { name: "lastName", required: true, value: driver.lastName || "" }),
              field(t("fleet.phone"), { name: "phone", type: "tel", value: driver.phone || "" }),
            ], t("fleet.save"), async (values) => {
              await api("PATCH", `/v1/admin/accounts/${segment(driver.userId)}`, values);
              announce(t("fleet.saved"));
              await draw();
            }, { class: "edit-driver" })),
          h("button", { type: "button", class: "secondary delete-driver", onclick: async () => {
            if (!window.confirm(t("fleet.confirmDeleteDriver", { name: fullName(driver) }))) return;
            try {
              await api("DELETE", `/v1/admin/drivers/${segment(driver.userId)}`);
              announce(t("fleet.driverDeleted", { name: fullName(driver) }));
              await draw();
            } catch (error) {
              item.append(failure(error));
            }
          } }, t("fleet.deleteDriver")));
        return item;
      })) : h("p", { class: "empty" }, t("fleet.noDrivers")),
      h("h3", {}, t("fleet.addDriver")),
      form(t("fleet.addDriver"), [
        field(t("fleet.firstName"), { name: "firstName", required: true }),
        field(t("fleet.lastName"), { name: "lastName", required: true }),
        field(t("fleet.email"), { name: "email", type: "email", required: true }),
        field(t("fleet.password"), { name: "password", type: "password", required: true, autocomplete: "new-password" }, t("fleet.passwordHint")),
        field(t("fleet.phone"), { name: "phone", type: "tel" }),
      ], t("fleet.add"), async (values) => {
        const created = await api("POST", "/v1/admin/drivers", values);
        announce(t("fleet.driverAdded", { name: fullName(created.profile) }));
        await draw();
      }, { id: "add-driver-form" }));

    replace(taxisSection, h("h2", { id: "taxis-heading" }, t("fleet.taxis")),
      data.taxis.length ? h("table", { id: "taxi-table" },
        h("caption", {}, t("fleet.taxisCaption")),
        h("thead", {}, h("tr", {}, [t("fleet.code"), t("fleet.plate"), t("fleet.seats"), t("fleet.driver"), t("fleet.state"), t("fleet.actions")].map((label) => h("th", { scope: "col" }, label)))),
        h("tbody", {}, data.taxis.map((taxi) => {
          const row = h("tr", { dataset: { taxi: taxi.code } },
            h("th", { scope: "row" }, taxi.code), h("td", {}, taxi.plate), h("td", {}, String(taxi.capacity)),
            h("td", {}, taxi.driverName || t("fleet.noDriver")),
            h("td", {}, enumText(taxi.state), taxi.zoneId ? ` · ${taxi.zoneId}` : "", taxi.unavailableReason ? ` (${taxi.unavailableReason})` : ""),
            h("td", {},
              h("details", {}, h("summary", {}, t("fleet.change")),
                form(t("fleet.changeTaxi", { code: taxi.code }), [
                  field(t("fleet.plate"), { name: "plate", required: true, value: taxi.plate }),
                  field(t("fleet.seats"), { name: "capacity", type: "number", min: 1, max: 8, required: true, value: taxi.capacity }),
                  field(t("fleet.driver"), { name: "driverUserId", options: driverOptions, value: taxi.driverUserId || "" }),
                ], t("fleet.save"), async (values) => {
                  await api("PATCH", `/v1/admin/taxis/${segment(taxi.code)}`, {
                    taxi: { code: taxi.code, plate: values.plate, capacity: Number(values.capacity), driverUserId: values.driverUserId },
                  });
                  announce(t("fleet.saved"));
                  await draw();
                }, { class: "edit-taxi" })),
              h("button", { type: "button", class: "secondary delete-taxi", onclick: async () => {
                if (!window.confirm(t("fleet.confirmDeleteTaxi", { code: taxi.code }))) return;
                try {
                  await api("DELETE", `/v1/admin/taxis/${segment(taxi.code)}`);
                  announce(t("fleet.taxiDeleted", { code: taxi.code }));
                  await draw();
                } catch (error) {
                  row.append(h("td", {}, failure(error)));
                }
              } }, t("fleet.deleteTaxi"))));
          return row;
        }))) : h("p", { class: "empty" }, t("fleet.noTaxis")),
      h("h3", {}, t("fleet.addTaxi")),
      form(t("fleet.addTaxi"), [
        field(t("fleet.code"), { name: "code", required: true, placeholder: "MI-010" }),
        field(t("fleet.plate"), { name: "plate", required: true }),
        field(t("fleet.seats"), { name: "capacity", type: "number", min: 1, max: 8, value: 4, required: true }),
        field(t("fleet.driver"), { name: "driverUserId", options: driverOptions, value: "" }),
      ], t("fleet.add"), async (values) => {
        await api("POST", "/v1/admin/taxis", { taxi: { code: values.code, plate: values.plate, capacity: Number(values.capacity), driverUserId: values.driverUserId } });
        announce(t("fleet.taxiAdded", { code: values.code.toUpperCase() }));
        await draw();
      }, { id: "add-taxi-form" }));
  }

  async function drawZones() {
    const zones = await api("GET", "/v1/taxi/zones");
    const mapElement = h("div", { id: "zones-map", class: "map" });
    const tariff = zones.tariff || {};
    replace(zonesSection, h("h2", { id: "zones-heading" }, t("fleet.zones")), mapElement,
      h("p", { id: "tariff" }, t("fleet.tariff", {
        base: money(tariff.baseFare), perKm: money(tariff.perKilometre), fee: money(tariff.cancellationFee), seconds: tariff.freeCancellationSeconds || 0,
      })),
      h("ul", { id: "zone-list" }, (zones.zones || []).map((zone) => h("li", { dataset: { zone: zone.zoneId } },
        h("strong", {}, `${zone.zoneId} · ${zone.name}`), " — ",
        t("fleet.neighbours", { zones: (zone.neighbourZoneIds || []).join(", ") })))));
    await baseMapIn(mapElement, t("fleet.zonesMap"), { fitZones: true });
  }

  await Promise.all([draw(), drawZones().catch((error) => zonesSection.append(failure(error)))]);
}
