// Service notices (a strike, works on a line) as a traveller reads them: in their language
// when the admin wrote it, else in the one they wrote, with the lines and stations concerned
// and when it applies.

import { h, dateTime } from "./dom.js";
import { t, language } from "./i18n.js";

/** The notice's title and description in the reader's language, else its first. */
export function noticeText(notice) {
  const texts = notice.texts || [];
  return texts.find((text) => text.language === language()) || texts[0] || { title: "", description: "" };
}

/** A list of notices (nothing when there are none). */
export function noticeList(notices, id) {
  if (!notices || !notices.length) return null;
  return h("section", { class: "notices", id, "aria-label": t("notices.title") },
    h("ul", {}, notices.map((notice) => {
      const text = noticeText(notice);
      const where = [...(notice.lineNames || []), ...(notice.stationNames || [])].join(", ");
      return h("li", { class: "notice", dataset: { notice: notice.noticeId } },
        h("strong", {}, text.title),
        text.description ? h("p", {}, text.description) : null,
        h("small", {}, [where || t("notices.network"), t("notices.window", { from: dateTime(notice.startsAt), until: dateTime(notice.endsAt) })].join(" · ")));
    })));
}
