import BinarioEvents
import BinarioStorage
import GRDB

/// Scheduling's database schema, one migration per shipped change (append, never edit).
///
/// The timetable is what the last imported GTFS feed said, replaced whole by each import:
/// `station`, `platform_stop` (a feed's platform stops, mapped to their station and platform),
/// `line`, `trip` and `trip_stop`, and `service_day` (every date each service runs, expanded from
/// calendar and calendar_dates at import). Times of day are INTEGER seconds since the start of
/// the trip's service day (past 86,400 after midnight), never clock times. `run_change` keeps
/// every live change admins made to a run (a trip on a service day), in the order made; it
/// survives timetable imports, which are planned data, not live state.
///
/// "v2-notifications" adds who follows which run, runs an admin removed from a date, the
/// notification centre (each recipient's notification in `notification`, ordered by `seq`, the
/// cursor; `notify_request` remembers each dedupe key; preferences, push devices, and `delivery`,
/// the outbox of what went out on each channel) and shared itineraries. "v3" keeps the admin's
/// idempotency key of each live change.
public enum SchedulingMigrations {
  public static let all = DatabaseMigrations()
    .add("v1-timetable") { db in
      try db.execute(
        sql: """
          CREATE TABLE station (
            id TEXT PRIMARY KEY NOT NULL,
            code TEXT NOT NULL,
            name TEXT NOT NULL,
            latitude REAL NOT NULL,
            longitude REAL NOT NULL
          );
          CREATE TABLE platform_stop (
            stop_id TEXT PRIMARY KEY NOT NULL,
            station_id TEXT NOT NULL REFERENCES station(id),
            platform TEXT NOT NULL
          );
          CREATE TABLE line (
            id TEXT PRIMARY KEY NOT NULL,
            short_name TEXT NOT NULL,
            long_name TEXT NOT NULL
          );
          CREATE TABLE service_day (
            service_id TEXT NOT NULL,
            day INTEGER NOT NULL,
            PRIMARY KEY (service_id, day)
          );
          CREATE INDEX service_day_by_day ON service_day(day);
          CREATE TABLE trip (
            id TEXT PRIMARY KEY NOT NULL,
            line_id TEXT NOT NULL REFERENCES line(id),
            service_id TEXT NOT NULL,
            train_number TEXT NOT NULL,
            headsign TEXT NOT NULL
          );
          CREATE INDEX trip_by_service ON trip(service_id);
          CREATE TABLE trip_stop (
            trip_id TEXT NOT NULL REFERENCES trip(id) ON DELETE CASCADE,
            sequence INTEGER NOT NULL,
            station_id TEXT NOT NULL REFERENCES station(id),
            platform TEXT NOT NULL,
            arrival INTEGER NOT NULL,
            departure INTEGER NOT NULL,
            PRIMARY KEY (trip_id, sequence)
          );
          CREATE INDEX trip_stop_by_station ON trip_stop(station_id, departure);
          CREATE TABLE run_change (
            id TEXT PRIMARY KEY NOT NULL,
            trip_id TEXT NOT NULL,
            service_day INTEGER NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('delay', 'platform', 'cancellation')),
            sequence INTEGER NOT NULL,
            minutes INTEGER NOT NULL DEFAULT 0,
            platform TEXT NOT NULL DEFAULT '',
            reason TEXT NOT NULL,
            changed_by TEXT NOT NULL,
            changed_at REAL NOT NULL,
            position INTEGER NOT NULL
          );
          CREATE INDEX run_change_by_run ON run_change(trip_id, service_day, position);
          CREATE TABLE timetable_import (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            imported_at REAL NOT NULL,
            source TEXT NOT NULL
          );
          """
      )
    }
    .add("v2-notifications") { db in
      try db.execute(
        sql: """
          CREATE TABLE run_exclusion (
            trip_id TEXT NOT NULL,
            day INTEGER NOT NULL,
            PRIMARY KEY (trip_id, day)
          );
          CREATE TABLE run_follower (
            trip_id TEXT NOT NULL,
            service_day INTEGER NOT NULL,
            user_id TEXT NOT NULL,
            followed_at REAL NOT NULL,
            PRIMARY KEY (trip_id, service_day, user_id)
          );
          CREATE INDEX run_follower_by_user ON run_follower(user_id, service_day);
          CREATE TABLE notification (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL UNIQUE,
            user_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            title TEXT NOT NULL,
            body TEXT NOT NULL,
            data TEXT NOT NULL,
            created_at REAL NOT NULL,
            read_at REAL,
            push_only INTEGER NOT NULL DEFAULT 0,
            delivered INTEGER NOT NULL DEFAULT 0
          );
          CREATE INDEX notification_by_user ON notification(user_id, seq);
          CREATE INDEX notification_unread ON notification(user_id) WHERE read_at IS NULL;
          CREATE INDEX notification_undelivered ON notification(seq) WHERE delivered = 0;
          CREATE TABLE notify_request (
            dedupe_key TEXT PRIMARY KEY NOT NULL,
            notified INTEGER NOT NULL,
            created_at REAL NOT NULL
          );
          CREATE TABLE notification_preference (
            user_id TEXT PRIMARY KEY NOT NULL,
            push INTEGER NOT NULL,
            email INTEGER NOT NULL,
            sms INTEGER NOT NULL
          );
          CREATE TABLE push_device (
            id TEXT PRIMARY KEY NOT NULL,
            user_id TEXT NOT NULL,
            platform TEXT NOT NULL,
            token TEXT NOT NULL,
            name TEXT NOT NULL,
            registered_at REAL NOT NULL,
            UNIQUE (platform, token)
          );
          CREATE INDEX push_device_by_user ON push_device(user_id);
          CREATE TABLE delivery (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL UNIQUE,
            channel TEXT NOT NULL CHECK (channel IN ('push', 'email', 'sms')),
            user_id TEXT NOT NULL,
            notification_id TEXT NOT NULL,
            address TEXT NOT NULL,
            title TEXT NOT NULL,
            body TEXT NOT NULL,
            sent_at REAL NOT NULL
          );
          CREATE INDEX delivery_by_user ON delivery(user_id, seq);
          CREATE TABLE itinerary (
            id TEXT PRIMARY KEY NOT NULL,
            organiser_id TEXT NOT NULL,
            name TEXT NOT NULL,
            destination TEXT NOT NULL,
            start_day INTEGER NOT NULL,
            end_day INTEGER NOT NULL,
            cost_minor INTEGER NOT NULL,
            currency TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('active', 'deleted')),
            created_at REAL NOT NULL
          );
          CREATE INDEX itinerary_by_organiser ON itinerary(organiser_id);
          CREATE TABLE itinerary_invite (
            id TEXT PRIMARY KEY NOT NULL,
            itinerary_id TEXT NOT NULL REFERENCES itinerary(id) ON DELETE CASCADE,
            invitee_user_id TEXT NOT NULL,
            invitee_email TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('pending', 'accepted', 'rejected', 'left')),
            invited_at REAL NOT NULL,
            answered_at REAL
          );
          CREATE UNIQUE INDEX itinerary_invite_user ON itinerary_invite(itinerary_id, invitee_user_id)
            WHERE invitee_user_id != '';
          CREATE UNIQUE INDEX itinerary_invite_email ON itinerary_invite(itinerary_id, invitee_email)
            WHERE invitee_email != '' AND invitee_user_id = '';
          CREATE INDEX itinerary_invite_by_user ON itinerary_invite(invitee_user_id, status);
          CREATE INDEX itinerary_invite_by_email ON itinerary_invite(invitee_email) WHERE invitee_user_id = '';
          CREATE TABLE itinerary_event (
            id TEXT PRIMARY KEY NOT NULL,
            itinerary_id TEXT NOT NULL REFERENCES itinerary(id) ON DELETE CASCADE,
            title TEXT NOT NULL,
            place TEXT NOT NULL,
            latitude REAL NOT NULL,
            longitude REAL NOT NULL,
            starts_at REAL NOT NULL,
            ends_at REAL NOT NULL,
            notes TEXT NOT NULL,
            cost_minor INTEGER NOT NULL,
            currency TEXT NOT NULL,
            created_by TEXT NOT NULL
          );
          CREATE INDEX itinerary_event_by_itinerary ON itinerary_event(itinerary_id, starts_at);
          """
      )
    }
    .add("v3-run-change-idempotency-key") { db in
      // The admin's key of the call that made a live change, unique per admin: a retry finds it.
      try db.execute(
        sql: """
          ALTER TABLE run_change ADD COLUMN idempotency_key TEXT;
          CREATE UNIQUE INDEX run_change_by_key ON run_change(changed_by, idempotency_key) WHERE idempotency_key IS NOT NULL;
          """
      )
    }
    // What identity tells scheduling (Shared/Events): its cursor.
    .add("v4-identity-events", EventSchema.createCursors)
    // The timetable changes scheduling tells other services (runs renamed, edited, removed; a
    // timetable replaced), recorded with the change.
    .add("v5-scheduling-event-log", EventSchema.createLog)
    // The part of the run a follower rides (`FollowedPart`): empty ends are the run's ends, so
    // the followers before it follow the whole run, as they did.
    .add("v6-follower-part") { db in
      try db.execute(
        sql: """
          ALTER TABLE run_follower ADD COLUMN from_station_id TEXT NOT NULL DEFAULT '';
          ALTER TABLE run_follower ADD COLUMN to_station_id TEXT NOT NULL DEFAULT '';
          """
      )
    }
    // Admins' service notices (`ServiceNotice`): texts, lines and stations as JSON arrays.
    .add("v7-service-notices") { db in
      try db.execute(
        sql: """
          CREATE TABLE service_notice (
            id TEXT PRIMARY KEY NOT NULL,
            texts TEXT NOT NULL,
            line_ids TEXT NOT NULL,
            station_ids TEXT NOT NULL,
            starts_at REAL NOT NULL,
            ends_at REAL NOT NULL,
            cause TEXT NOT NULL,
            effect TEXT NOT NULL,
            created_by TEXT NOT NULL,
            created_at REAL NOT NULL,
            followers_told INTEGER NOT NULL,
            idempotency_key TEXT
          );
          CREATE INDEX service_notice_by_end ON service_notice(ends_at);
          CREATE UNIQUE INDEX service_notice_by_key ON service_notice(created_by, idempotency_key)
            WHERE idempotency_key IS NOT NULL;
          """
      )
    }
    // What a static feed of the timetable needs back (`StaticFeed`): the feed's agencies, each
    // line's agency and route type, the zone the service days are in (NULL for a timetable
    // imported before: the configured zone), and when a run was last added, edited or removed.
    .add("v8-static-feed") { db in
      try db.execute(
        sql: """
          CREATE TABLE agency (
            position INTEGER PRIMARY KEY,
            id TEXT NOT NULL,
            name TEXT NOT NULL,
            url TEXT NOT NULL,
            timezone TEXT NOT NULL,
            language TEXT NOT NULL
          );
          ALTER TABLE line ADD COLUMN agency_id TEXT NOT NULL DEFAULT '';
          ALTER TABLE line ADD COLUMN route_type INTEGER NOT NULL DEFAULT 2;
          ALTER TABLE timetable_import ADD COLUMN timezone TEXT;
          ALTER TABLE timetable_import ADD COLUMN edited_at REAL;
          """
      )
    }
    // How a person hears of each topic (`DeliveryPreferences.topics`): only the topics they
    // chose for; the others keep their defaults.
    .add("v9-topic-preferences") { db in
      try db.execute(
        sql: """
          CREATE TABLE notification_topic_preference (
            user_id TEXT NOT NULL,
            topic TEXT NOT NULL,
            receive INTEGER NOT NULL,
            push INTEGER NOT NULL,
            email INTEGER NOT NULL,
            sms INTEGER NOT NULL,
            PRIMARY KEY (user_id, topic)
          );
          """
      )
    }
    // A trip's expenses: who paid what in which currency, split among whom (each part in minor
    // units, adding up to the amount); the adding call's key, unique per author and trip.
    .add("v10-itinerary-expenses") { db in
      try db.execute(
        sql: """
          CREATE TABLE itinerary_expense (
            id TEXT PRIMARY KEY NOT NULL,
            itinerary_id TEXT NOT NULL REFERENCES itinerary(id) ON DELETE CASCADE,
            description TEXT NOT NULL,
            amount_minor INTEGER NOT NULL,
            currency TEXT NOT NULL,
            paid_by TEXT NOT NULL,
            split TEXT NOT NULL,
            event_id TEXT,
            settlement INTEGER NOT NULL,
            spent_at REAL NOT NULL,
            created_by TEXT NOT NULL,
            created_at REAL NOT NULL,
            idempotency_key TEXT
          );
          CREATE INDEX itinerary_expense_by_itinerary ON itinerary_expense(itinerary_id, spent_at);
          CREATE UNIQUE INDEX itinerary_expense_key ON itinerary_expense(itinerary_id, created_by, idempotency_key)
            WHERE idempotency_key IS NOT NULL;
          CREATE TABLE itinerary_expense_share (
            expense_id TEXT NOT NULL REFERENCES itinerary_expense(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            user_id TEXT NOT NULL,
            value INTEGER NOT NULL,
            amount_minor INTEGER NOT NULL,
            PRIMARY KEY (expense_id, position)
          );
          CREATE INDEX itinerary_expense_share_by_user ON itinerary_expense_share(user_id);
          """
      )
    }
    // An invite to a registered person who is not yet the organiser's friend waits for the
    // friendship (identity's FriendshipStarted releases it, FriendRequestDeclined declines it).
    .add("v11-invites-await-friendship") { db in
      try db.execute(sql: "ALTER TABLE itinerary_invite ADD COLUMN awaits_friendship INTEGER NOT NULL DEFAULT 0")
    }
    // An event may be a ride on a train of the timetable (its run and the part ridden) and name
    // the ticket for it in its author's wallet.
    .add("v12-itinerary-train-events") { db in
      try db.execute(
        sql: """
          ALTER TABLE itinerary_event ADD COLUMN train_trip_id TEXT;
          ALTER TABLE itinerary_event ADD COLUMN train_service_date TEXT;
          ALTER TABLE itinerary_event ADD COLUMN train_from_station_id TEXT;
          ALTER TABLE itinerary_event ADD COLUMN train_to_station_id TEXT;
          ALTER TABLE itinerary_event ADD COLUMN ticket_id TEXT;
          CREATE INDEX itinerary_event_by_run ON itinerary_event(train_trip_id, train_service_date) WHERE train_trip_id IS NOT NULL;
          """
      )
    }
}
