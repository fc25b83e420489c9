// The signed-in user's notifications: the inbox, new ones arriving live, marking them read.

import { api } from "../api.js";
import { h, replace, failure, dateTime } from "../dom.js";
import { t } from "../i18n.js";

/** The air page's measure for a measure's name in an alert's data ("pm2.5" → MEASURE_PM2_5). */
const measureOf = (name) => `MEASURE_${name.toUpperCase().replace(".", "_")}`;

function item(notification) {
  const data = notification.data || {};
  // A train's change opens its run; an air alert opens the air page on its board and measure; a
  // friend request the friends page; a trip's news the trip.
  const link = data.trip_id && data.service_date ? `#/trips/${encodeURIComponent(data.trip_id)}/${data.service_date}`
    : data.alert_id ? `#/air?${new URLSearchParams({ ...(data.device_id ? { device: data.device_id } : {}), ...(data.measure ? { measure: measureOf(data.measure) } : {}) })}`
      : data.friend_request_from ? "#/friends"
        : notification.kind === "NOTIFICATION_KIND_ITINERARY_INVITE" ? "#/itineraries"
          : data.itinerary_id ? `#/itineraries/${encodeURIComponent(data.itinerary_id)}`
            : null;
  return h("li", { class: notification.read ? "notification" : "notification unread", dataset: { id: notification.notificationId } },
    h("p", { class: "title" }, link ? h("a", { href: link }, notification.title) : notification.title,
      notification.read ? null : h("span", { class: "visually-hidden" }, ` (${t("notifications.unread")})`)),
    notification.body ? h("p", {}, notification.body) : null,
    h("time", { datetime: notification.createdAt }, dateTime(notification.createdAt)));
}

export async function show(main, { app }) {
  const list = h("ol", { id: "notifications", class: "notifications", "aria-live": "polite" });
  const markAll = h("button", { type: "button", class: "secondary", id: "mark-all-read" }, t("notifications.markAll"));
  main.append(h("div", { class: "toolbar" }, markAll), list);
  try {
    const inbox = await api("GET", "/v1/me/notifications?page_size=50");
    const notifications = inbox.notifications || [];
    replace(list, notifications.length ? notifications.map(item) : h("li", { class: "empty" }, t("notifications.empty")));
    app.setUnread(inbox.unreadCount || 0);
  } catch (error) {
    main.append(failure(error));
  }
  markAll.addEventListener("click", async () => {
    try {
      await api("POST", "/v1/me/notifications:markRead", { all: true });
      for (const element of list.querySelectorAll(".unread")) element.classList.remove("unread");
      app.setUnread(0);
    } catch (error) {
      main.append(failure(error));
    }
  });
  const arrived = (event) => {
    list.querySelector(".empty")?.remove();
    list.prepend(item(event.detail));
  };
  window.addEventListener("binario:notification", arrived);
  return () => window.removeEventListener("binario:notification", arrived);
}
