import BinarioEvents
import BinarioStorage
import GRDB

/// Dispatch's database schema, one migration per shipped change (append, never edit).
///
/// The rules that must hold whatever runs at once are the schema's too, as partial unique
/// indexes: a taxi has at most one pending offer and one active ride, a ride at most one pending
/// offer, a passenger at most one open ride. Every transition is one write transaction, so a
/// crash (kill -9) leaves the state before or after it, never between.
///
/// `taxi.queue_seq` orders a zone's queue (smallest first: the head); joining the tail takes the
/// next value of `queue_counter`. A taxi is queued exactly when it is available, in a zone and not
/// on a ride. `offer.queue_seq` remembers the taxi's place when it was offered the job, to give it
/// back when the passenger cancels. `outbox` holds notifications written with the change that
/// caused them, sent after commit and deleted once scheduling has them. Instants are REAL seconds
/// since 1970; money is integer minor units.
public enum DispatchMigrations {
  public static let all = DatabaseMigrations()
    .add("v1-dispatch") { db in
      try db.execute(
        sql: """
          CREATE TABLE taxi (
            code TEXT PRIMARY KEY NOT NULL,
            plate TEXT NOT NULL UNIQUE,
            capacity INTEGER NOT NULL,
            driver_user_id TEXT UNIQUE,
            available INTEGER NOT NULL DEFAULT 0,
            unavailable_reason TEXT NOT NULL DEFAULT 'not signed on yet',
            latitude REAL,
            longitude REAL,
            position_at REAL,
            zone_id TEXT,
            queue_seq INTEGER UNIQUE,
            missed_offers INTEGER NOT NULL DEFAULT 0
          );
          CREATE INDEX taxi_queue ON taxi(zone_id, queue_seq) WHERE queue_seq IS NOT NULL;
          CREATE TABLE queue_counter (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            last INTEGER NOT NULL
          );
          INSERT INTO queue_counter (id, last) VALUES (1, 0);
          CREATE TABLE ride (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            passenger_user_id TEXT NOT NULL,
            passenger_name TEXT NOT NULL,
            idempotency_key TEXT NOT NULL,
            state TEXT NOT NULL,
            pickup_latitude REAL NOT NULL,
            pickup_longitude REAL NOT NULL,
            pickup_address TEXT NOT NULL,
            pickup_zone_id TEXT NOT NULL,
            destination_latitude REAL,
            destination_longitude REAL,
            destination_address TEXT NOT NULL DEFAULT '',
            destination_zone_id TEXT NOT NULL DEFAULT '',
            passengers INTEGER NOT NULL,
            requested_at REAL NOT NULL,
            taxi_code TEXT,
            taxi_plate TEXT NOT NULL DEFAULT '',
            allocated_at REAL,
            estimated_pickup_at REAL,
            passenger_code TEXT NOT NULL,
            delayed INTEGER NOT NULL DEFAULT 0,
            arrived_at REAL,
            started_at REAL,
            ended_at REAL,
            distance_metres REAL NOT NULL DEFAULT 0,
            last_latitude REAL,
            last_longitude REAL,
            last_position_at REAL,
            currency TEXT NOT NULL,
            estimated_fare_minor INTEGER,
            fare_minor INTEGER,
            cancellation_fee_minor INTEGER,
            card_token TEXT NOT NULL,
            card_last4 TEXT NOT NULL,
            hold_id TEXT NOT NULL,
            settled INTEGER NOT NULL DEFAULT 0,
            position_alerted INTEGER NOT NULL DEFAULT 0,
            UNIQUE (passenger_user_id, idempotency_key)
          );
          CREATE UNIQUE INDEX ride_active_taxi ON ride(taxi_code) WHERE state IN ('allocated', 'arrived', 'in_progress');
          CREATE UNIQUE INDEX ride_open_passenger ON ride(passenger_user_id)
            WHERE state IN ('searching', 'allocated', 'arrived', 'in_progress');
          CREATE INDEX ride_by_passenger ON ride(passenger_user_id, seq);
          CREATE INDEX ride_open ON ride(state, seq) WHERE state IN ('searching', 'allocated', 'arrived', 'in_progress');
          CREATE INDEX ride_unsettled ON ride(seq) WHERE settled = 0 AND state IN ('completed', 'cancelled', 'no_taxi');
          CREATE TABLE offer (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            ride_seq INTEGER NOT NULL REFERENCES ride(seq),
            taxi_code TEXT NOT NULL,
            state TEXT NOT NULL,
            queue_seq INTEGER,
            distance_metres REAL NOT NULL,
            offered_at REAL NOT NULL,
            expires_at REAL NOT NULL,
            answered_at REAL
          );
          CREATE UNIQUE INDEX offer_pending_taxi ON offer(taxi_code) WHERE state = 'pending';
          CREATE UNIQUE INDEX offer_pending_ride ON offer(ride_seq) WHERE state = 'pending';
          CREATE INDEX offer_expiry ON offer(expires_at) WHERE state = 'pending';
          CREATE INDEX offer_by_ride ON offer(ride_seq, taxi_code);
          CREATE TABLE payment (
            id TEXT PRIMARY KEY NOT NULL,
            reference TEXT NOT NULL UNIQUE,
            kind TEXT NOT NULL,
            hold_id TEXT,
            amount_minor INTEGER NOT NULL,
            currency TEXT NOT NULL,
            card_last4 TEXT NOT NULL,
            approved INTEGER NOT NULL,
            description TEXT NOT NULL,
            created_at REAL NOT NULL
          );
          CREATE TABLE saved_place (
            user_id TEXT NOT NULL,
            name TEXT NOT NULL,
            latitude REAL NOT NULL,
            longitude REAL NOT NULL,
            PRIMARY KEY (user_id, name)
          ) WITHOUT ROWID;
          CREATE TABLE outbox (
            seq INTEGER PRIMARY KEY,
            dedupe_key TEXT NOT NULL UNIQUE,
            audience TEXT NOT NULL,
            user_id TEXT NOT NULL,
            title TEXT NOT NULL,
            body TEXT NOT NULL,
            data TEXT NOT NULL,
            push_only INTEGER NOT NULL
          );
          """
      )
    }
    .add("v2-reservations") { db in
      // Reservations, and shared ones' groups: one ride per group, its members the group's
      // reservations. `ends_at` is the meeting time plus the trip's estimate: what overlaps.
      try db.execute(
        sql: """
          CREATE TABLE reservation (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            passenger_user_id TEXT NOT NULL,
            passenger_name TEXT NOT NULL,
            idempotency_key TEXT NOT NULL,
            state TEXT NOT NULL,
            pickup_latitude REAL NOT NULL,
            pickup_longitude REAL NOT NULL,
            pickup_address TEXT NOT NULL,
            pickup_zone_id TEXT NOT NULL,
            destination_latitude REAL NOT NULL,
            destination_longitude REAL NOT NULL,
            destination_address TEXT NOT NULL,
            destination_zone_id TEXT NOT NULL,
            passengers INTEGER NOT NULL,
            meeting_at REAL NOT NULL,
            ends_at REAL NOT NULL,
            shared INTEGER NOT NULL,
            group_id TEXT,
            currency TEXT NOT NULL,
            fare_minor INTEGER NOT NULL,
            card_token TEXT NOT NULL,
            card_last4 TEXT NOT NULL,
            ride_id TEXT,
            created_at REAL NOT NULL,
            cancelled_at REAL,
            cancellation_fee_minor INTEGER,
            UNIQUE (passenger_user_id, idempotency_key)
          );
          CREATE INDEX reservation_due ON reservation(meeting_at) WHERE state = 'scheduled';
          CREATE INDEX reservation_by_passenger ON reservation(passenger_user_id, meeting_at);
          CREATE INDEX reservation_by_group ON reservation(group_id, meeting_at, seq) WHERE group_id IS NOT NULL;
          ALTER TABLE ride ADD COLUMN reservation_id TEXT NOT NULL DEFAULT '';
          ALTER TABLE ride ADD COLUMN group_id TEXT;
          """
      )
    }
    // Where dispatch stands in identity's events (account deleted, disabled).
    .add("v3-identity-events", EventSchema.createCursors)
    .add("v4-rounds-riders-parties") { db in
      // A search goes round again (`search_round`, `next_round_at`; an offer remembers its
      // round) until the search limit; `end_reason` says why a ride ended ("passenger",
      // "no_show", "no_taxi", ...). A reservation's ride keeps its meeting time. A party larger than one taxi is several rides of one
      // `party_id`, each its own `party_index`: one open ride per passenger and slot. Every rider
      // of a shared ride has their own code, boarding time and the fare they would pay alone.
      // `alert` keeps what the admins were told until one of them acknowledges it.
      try db.execute(
        sql: """
          ALTER TABLE ride ADD COLUMN search_round INTEGER NOT NULL DEFAULT 1;
          ALTER TABLE ride ADD COLUMN next_round_at REAL;
          ALTER TABLE ride ADD COLUMN end_reason TEXT NOT NULL DEFAULT '';
          ALTER TABLE ride ADD COLUMN party_id TEXT;
          ALTER TABLE ride ADD COLUMN party_index INTEGER NOT NULL DEFAULT 0;
          ALTER TABLE ride ADD COLUMN meeting_at REAL;
          DROP INDEX ride_open_passenger;
          CREATE UNIQUE INDEX ride_open_passenger ON ride(passenger_user_id, party_index)
            WHERE state IN ('searching', 'allocated', 'arrived', 'in_progress');
          CREATE INDEX ride_by_party ON ride(party_id) WHERE party_id IS NOT NULL;
          ALTER TABLE offer ADD COLUMN round INTEGER NOT NULL DEFAULT 1;
          ALTER TABLE reservation ADD COLUMN passenger_code TEXT NOT NULL DEFAULT '';
          ALTER TABLE reservation ADD COLUMN boarded_at REAL;
          ALTER TABLE reservation ADD COLUMN solo_fare_minor INTEGER;
          ALTER TABLE reservation ADD COLUMN end_reason TEXT NOT NULL DEFAULT '';
          UPDATE reservation SET passenger_code = printf('%04d', abs(random()) % 10000), solo_fare_minor = fare_minor;
          CREATE INDEX reservation_by_ride ON reservation(ride_id) WHERE ride_id IS NOT NULL;
          """
      )
      try db.execute(sql: alertTable)
    }
    .add("v5-passenger-profiles") { db in
      // What a request needs about its passenger (name, verified phone, default card), kept from
      // identity's `AccountProfileChanged` events so a request need not ask identity. Erased with
      // the account.
      try db.execute(
        sql: """
          CREATE TABLE passenger_profile (
            user_id TEXT PRIMARY KEY,
            display_name TEXT NOT NULL,
            verified_phone TEXT NOT NULL,
            payment_method_id TEXT NOT NULL,
            card_token TEXT NOT NULL,
            card_last4 TEXT NOT NULL,
            updated_at REAL NOT NULL
          ) WITHOUT ROWID;
          """
      )
    }
    .add("v6-alert-if-missing") { db in
      // v4's first form (commit 4365097) had no `alert` table yet, and a database it migrated
      // never got one: every alert read failed there.
      try db.execute(sql: alertTable)
    }

  /// What the admins were told, kept until one of them acknowledges it (v4, and v6 where v4's
  /// first form left it out).
  static let alertTable = """
    CREATE TABLE IF NOT EXISTS alert (
      seq INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      kind TEXT NOT NULL,
      title TEXT NOT NULL,
      body TEXT NOT NULL,
      taxi_code TEXT NOT NULL,
      ride_id TEXT NOT NULL,
      zone_id TEXT NOT NULL,
      raised_at REAL NOT NULL,
      acknowledged_at REAL,
      acknowledged_by TEXT NOT NULL DEFAULT ''
    );
    CREATE INDEX IF NOT EXISTS alert_open ON alert(raised_at) WHERE acknowledged_at IS NULL;
    """
}
