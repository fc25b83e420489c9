// Admins' service notices: a strike, works on a line, a station closed. Written in Italian and
// English, for some lines and stations (none: the whole network) in a window of time; shown on
// the boards and trip pages they concern, pushed to the followers of the runs they concern and
// published in the realtime feed.

import { api } from "../api.js";
import { h, replace, field, form, failure, announce, dateTime, enumText, fromZonedInput } from "../dom.js";
import { t } from "../i18n.js";
import { noticeText } from "../notices.js";

const causes = ["STRIKE", "MAINTENANCE", "CONSTRUCTION", "TECHNICAL_PROBLEM", "WEATHER", "ACCIDENT", "DEMONSTRATION", "POLICE_ACTIVITY", "MEDICAL_EMERGENCY", "HOLIDAY", "OTHER"];
const effects = ["NO_SERVICE", "REDUCED_SERVICE", "SIGNIFICANT_DELAYS", "DETOUR", "MODIFIED_SERVICE", "ADDITIONAL_SERVICE", "STOP_MOVED", "OTHER"];

export async function show(main) {
  let stations;
  let lines;
  try {
    [stations, lines] = await Promise.all([
      api("GET", "/v1/stations").then((answer) => answer.stations || []),
      api("GET", "/v1/admin/lines").then((answer) => answer.lines || []),
    ]);
  } catch (error) {
    main.append(failure(error));
    return;
  }
  const list = h("section", { id: "notices-list", "aria-live": "polite" });
  let key = crypto.randomUUID();
  const picker = (id, label, options) => h("div", { class: "field" },
    h("label", { for: id }, label),
    h("select", { id, name: id, multiple: true, size: 5 }, options.map(([value, text]) => h("option", { value }, text))),
    h("small", { class: "hint" }, t("notices.pickHint")));
  const create = form(t("notices.create"), [
    field(t("notices.titleIt"), { name: "title", required: true, maxlength: 140, placeholder: t("notices.titlePlaceholderIt") }),
    field(t("notices.descriptionIt"), { name: "description", maxlength: 2000 }),
    field(t("notices.titleEn"), { name: "titleEn", maxlength: 140, placeholder: t("notices.titlePlaceholderEn") }),
    field(t("notices.descriptionEn"), { name: "descriptionEn", maxlength: 2000 }),
    picker("notice-lines", t("notices.lines"), lines.map((line) => [line.lineId, `${line.shortName} ${line.longName}`])),
    picker("notice-stations", t("notices.stations"), stations.map((station) => [station.stationId, station.name])),
    field(t("notices.starts"), { name: "startsAt", type: "datetime-local" }, t("notices.startsHint")),
    field(t("notices.ends"), { name: "endsAt", type: "datetime-local", required: true }),
    field(t("notices.cause"), { name: "cause", options: causes.map((cause) => [cause, enumText(`NOTICE_CAUSE_${cause}`)]) }),
    field(t("notices.effect"), { name: "effect", options: effects.map((effect) => [effect, enumText(`NOTICE_EFFECT_${effect}`)]) }),
  ], t("notices.publish"), async (values, element) => {
    const chosen = (id) => [...element.querySelector(`#${id}`).selectedOptions].map((option) => option.value);
    const texts = [{ language: "it", title: values.title, description: values.description }];
    if (values.titleEn) texts.push({ language: "en", title: values.titleEn, description: values.descriptionEn });
    const answer = await api("POST", "/v1/admin/service-notices", {
      texts,
      lineIds: chosen("notice-lines"),
      stationIds: chosen("notice-stations"),
      startsAt: values.startsAt ? fromZonedInput(values.startsAt).toISOString() : undefined,
      endsAt: values.endsAt ? fromZonedInput(values.endsAt).toISOString() : undefined,
      cause: `NOTICE_CAUSE_${values.cause}`,
      effect: `NOTICE_EFFECT_${values.effect}`,
      idempotencyKey: key,
    });
    key = crypto.randomUUID();
    element.reset();
    announce(t("notices.published", { count: answer.notice.followersTold || 0 }));
    await load();
  }, { id: "notice-form" });
  main.append(list, create);

  async function load() {
    const notices = (await api("GET", "/v1/admin/service-notices")).notices || [];
    const now = Date.now();
    replace(list, h("h2", {}, t("notices.publishedList")), notices.length ? h("table", { class: "notices-table" },
      h("thead", {}, h("tr", {}, ["notices.notice", "notices.where", "notices.when", "notices.told", "notices.state"].map((k) => h("th", { scope: "col" }, t(k))), h("th", {}, h("span", { class: "visually-hidden" }, t("notices.end"))))),
      h("tbody", {}, notices.map((notice) => {
        const ended = new Date(notice.endsAt).getTime() <= now;
        const started = new Date(notice.startsAt).getTime() <= now;
        const text = noticeText(notice);
        return h("tr", { dataset: { notice: notice.noticeId }, class: ended ? "ended" : "" },
          h("td", {}, h("strong", {}, text.title), " ", h("small", {}, enumText(notice.cause || "NOTICE_CAUSE_OTHER"))),
          h("td", {}, [...(notice.lineNames || []), ...(notice.stationNames || [])].join(", ") || t("notices.network")),
          h("td", {}, dateTime(notice.startsAt), " – ", dateTime(notice.endsAt)),
          h("td", {}, String(notice.followersTold || 0)),
          h("td", {}, t(ended ? "notices.ended" : started ? "notices.active" : "notices.upcoming")),
          h("td", {}, ended ? null : h("button", { type: "button", class: "secondary end-notice", "aria-label": t("notices.endLabel", { title: text.title }),
            onclick: async () => {
              try {
                await api("POST", `/v1/admin/service-notices/${encodeURIComponent(notice.noticeId)}:end`, {});
                announce(t("notices.endedNow", { title: text.title }));
                await load();
              } catch (error) {
                announce(error.message);
              }
            } }, t("notices.end"))));
      }))) : h("p", {}, t("notices.none")));
  }
  await load().catch((error) => main.append(failure(error)));
}
