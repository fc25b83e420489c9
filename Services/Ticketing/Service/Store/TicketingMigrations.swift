import BinarioEvents
import BinarioStorage
import GRDB

/// Ticketing's database schema, one migration per shipped change (append, never edit).
///
/// `fare_table` holds the fare table in force (JSON). A `quote` holds a priced product for its
/// lifetime; a `purchase` claims its buyer's idempotency key (unique per user) before the charge
/// and records the outcome (a quote is bought at most once, declined attempts aside); `charge` is the default payment implementation's record of every
/// charge and refund (amount, card's last four digits, status), unique per reference. Each
/// `ticket` is one passenger's, with its signed validation code; `validation` keeps each ride
/// used. `run_follow_change` is the outbox of runs a holder starts or stops following in
/// scheduling. `validation_key` holds the Ed25519 keys codes are signed with.
///
/// Subscriptions: `subscription` (owner, details, next renewal; a pass's ticket; the adding
/// call's idempotency key), its
/// `subscription_member`s, and `renewal_reminder`, each reminder sent. Dates are `YYYY-MM-DD`
/// text, instants REAL seconds since 1970, money INTEGER minor units with a currency.
public enum TicketingMigrations {
  public static let all = DatabaseMigrations()
    .add("v1-ticketing") { db in
      try db.execute(
        sql: """
          CREATE TABLE fare_table (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            json TEXT NOT NULL,
            loaded_at REAL NOT NULL
          );
          CREATE TABLE validation_key (
            id TEXT PRIMARY KEY NOT NULL,
            private_key BLOB NOT NULL,
            created_at REAL NOT NULL
          );
          CREATE TABLE quote (
            id TEXT PRIMARY KEY NOT NULL,
            user_id TEXT NOT NULL,
            json TEXT NOT NULL,
            expires_at REAL NOT NULL
          );
          CREATE TABLE purchase (
            id TEXT PRIMARY KEY NOT NULL,
            user_id TEXT NOT NULL,
            idempotency_key TEXT NOT NULL,
            quote_id TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('pending', 'completed', 'declined')),
            total_minor INTEGER NOT NULL,
            currency TEXT NOT NULL,
            payment_method_id TEXT NOT NULL,
            card_token TEXT NOT NULL,
            card_last4 TEXT NOT NULL,
            charge_id TEXT,
            failure TEXT,
            created_at REAL NOT NULL,
            UNIQUE (user_id, idempotency_key)
          );
          CREATE INDEX purchase_by_user ON purchase(user_id, created_at DESC, id DESC);
          -- A quote is sold once; a declined attempt leaves it for another card (and key).
          CREATE UNIQUE INDEX purchase_of_quote ON purchase(quote_id) WHERE status != 'declined';
          CREATE TABLE charge (
            id TEXT PRIMARY KEY NOT NULL,
            reference TEXT NOT NULL UNIQUE,
            kind TEXT NOT NULL CHECK (kind IN ('charge', 'refund')),
            refunds_charge_id TEXT REFERENCES charge(id),
            amount_minor INTEGER NOT NULL,
            currency TEXT NOT NULL,
            card_last4 TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('approved', 'declined')),
            description TEXT NOT NULL,
            created_at REAL NOT NULL
          );
          CREATE TABLE ticket (
            id TEXT PRIMARY KEY NOT NULL,
            purchase_id TEXT NOT NULL REFERENCES purchase(id),
            holder_id TEXT NOT NULL,
            json TEXT NOT NULL,
            rides_used INTEGER NOT NULL DEFAULT 0,
            active_until REAL,
            refunded_at REAL,
            refund_charge_id TEXT,
            valid_until REAL NOT NULL
          );
          CREATE INDEX ticket_by_holder ON ticket(holder_id, valid_until);
          CREATE INDEX ticket_by_purchase ON ticket(purchase_id);
          CREATE TABLE validation (
            ticket_id TEXT NOT NULL REFERENCES ticket(id),
            ride INTEGER NOT NULL,
            validated_at REAL NOT NULL,
            active_until REAL,
            inspector_id TEXT NOT NULL,
            PRIMARY KEY (ticket_id, ride)
          );
          CREATE TABLE run_follow_change (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            user_id TEXT NOT NULL,
            trip_id TEXT NOT NULL,
            service_date TEXT NOT NULL,
            following INTEGER NOT NULL,
            sent INTEGER NOT NULL DEFAULT 0
          );
          CREATE INDEX run_follow_change_pending ON run_follow_change(sent, id);
          CREATE TABLE subscription (
            id TEXT PRIMARY KEY NOT NULL,
            owner_id TEXT NOT NULL,
            service_name TEXT NOT NULL,
            custom_service_name INTEGER NOT NULL,
            plan_type TEXT NOT NULL,
            custom_plan_type INTEGER NOT NULL,
            start_date TEXT NOT NULL,
            period TEXT NOT NULL,
            price_minor INTEGER NOT NULL,
            currency TEXT NOT NULL,
            card_last4 TEXT NOT NULL,
            automatic_renewal INTEGER NOT NULL,
            category TEXT NOT NULL,
            next_renewal TEXT NOT NULL,
            ticket_id TEXT UNIQUE REFERENCES ticket(id),
            created_at REAL NOT NULL
          );
          CREATE INDEX subscription_by_owner ON subscription(owner_id);
          CREATE INDEX subscription_by_renewal ON subscription(next_renewal);
          CREATE TABLE subscription_member (
            subscription_id TEXT NOT NULL REFERENCES subscription(id) ON DELETE CASCADE,
            user_id TEXT NOT NULL,
            position INTEGER NOT NULL,
            PRIMARY KEY (subscription_id, user_id)
          );
          CREATE INDEX subscription_member_by_user ON subscription_member(user_id);
          CREATE TABLE renewal_reminder (
            subscription_id TEXT NOT NULL REFERENCES subscription(id) ON DELETE CASCADE,
            renewal_date TEXT NOT NULL,
            sent_at REAL NOT NULL,
            PRIMARY KEY (subscription_id, renewal_date)
          );
          """
      )
    }
    .add("v2-subscription-idempotency-key") { db in
      // The client's key of the AddSubscription that made it, unique per owner: a retry finds it.
      try db.execute(
        sql: """
          ALTER TABLE subscription ADD COLUMN idempotency_key TEXT;
          CREATE UNIQUE INDEX subscription_by_owner_key ON subscription(owner_id, idempotency_key)
            WHERE idempotency_key IS NOT NULL;
          """
      )
    }
    // Where ticketing stands in each producer's events (identity's accounts, scheduling's
    // timetable): one row per producer.
    .add("v3-identity-events", EventSchema.createCursors)
    // The stations of the ticket on the run: its holder hears of the changes between them.
    .add("v4-follow-change-stations") { db in
      try db.execute(
        sql: """
          ALTER TABLE run_follow_change ADD COLUMN from_station_id TEXT NOT NULL DEFAULT '';
          ALTER TABLE run_follow_change ADD COLUMN to_station_id TEXT NOT NULL DEFAULT '';
          """
      )
    }
    // A subscription's life (SubscribeME's issue #42): a free trial's last day, its own reminder
    // lead time, paused from, ended on; every payment recorded (`subscription_payment`, the
    // renewal date it paid unique per subscription); each person's settings and budgets; the
    // exchange rates the operator loaded; the overdue notices sent. A pass ends on its last day,
    // the day before the renewal the pass's subscription was given (passes were a period long).
    .add("v5-subscription-life") { db in
      try db.execute(
        sql: """
          ALTER TABLE subscription ADD COLUMN trial_ends_on TEXT;
          ALTER TABLE subscription ADD COLUMN reminder_days INTEGER;
          ALTER TABLE subscription ADD COLUMN paused_on TEXT;
          ALTER TABLE subscription ADD COLUMN ends_on TEXT;
          UPDATE subscription SET ends_on = date(next_renewal, '-1 day') WHERE ticket_id IS NOT NULL;
          CREATE TABLE subscription_payment (
            subscription_id TEXT NOT NULL REFERENCES subscription(id) ON DELETE CASCADE,
            due_date TEXT NOT NULL,
            paid_on TEXT NOT NULL,
            amount_minor INTEGER NOT NULL,
            currency TEXT NOT NULL,
            automatic INTEGER NOT NULL,
            paid_by TEXT,
            recorded_at REAL NOT NULL,
            PRIMARY KEY (subscription_id, due_date)
          );
          CREATE INDEX subscription_payment_by_payer ON subscription_payment(paid_by) WHERE paid_by IS NOT NULL;
          CREATE TABLE subscription_settings (
            user_id TEXT PRIMARY KEY NOT NULL,
            reminder_days INTEGER NOT NULL,
            home_renewals INTEGER NOT NULL,
            main_currency TEXT NOT NULL,
            monthly_budget_minor INTEGER NOT NULL
          );
          CREATE TABLE subscription_budget (
            user_id TEXT NOT NULL,
            category TEXT NOT NULL,
            amount_minor INTEGER NOT NULL,
            PRIMARY KEY (user_id, category)
          );
          CREATE TABLE exchange_rate (
            currency TEXT PRIMARY KEY NOT NULL,
            per_euro TEXT NOT NULL,
            rates_date TEXT NOT NULL
          );
          CREATE TABLE overdue_notice (
            subscription_id TEXT NOT NULL REFERENCES subscription(id) ON DELETE CASCADE,
            renewal_date TEXT NOT NULL,
            sent_at REAL NOT NULL,
            PRIMARY KEY (subscription_id, renewal_date)
          );
          """
      )
    }
}
