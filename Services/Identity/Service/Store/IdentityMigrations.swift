import BinarioEvents
import BinarioStorage
import Foundation
import GRDB

/// Identity's database schema, one migration per shipped change (append, never edit).
///
/// Times are stored as REAL seconds since 1970 (UTC). Everything personal hangs off `account`
/// with `ON DELETE CASCADE`, so deleting an account row removes its roles, confirmation,
/// sessions, refresh tokens, friend requests, friendships and emergency contacts;
/// `session_revocation` deliberately has no foreign key: the gateway must keep refusing a deleted
/// account's tokens, and a random session id is not personal data. `audit_entry` has none either:
/// what an admin did stays on record after the account it touched is gone.
public enum IdentityMigrations {
  public static let all = DatabaseMigrations()
    .add("v1-identity") { db in
      try db.execute(
        sql: """
          CREATE TABLE account (
            id TEXT PRIMARY KEY NOT NULL,
            email TEXT NOT NULL UNIQUE,
            email_confirmed INTEGER NOT NULL DEFAULT 0,
            pending_email TEXT,
            password_hash TEXT NOT NULL,
            first_name TEXT NOT NULL,
            last_name TEXT NOT NULL,
            phone TEXT NOT NULL,
            birth_date TEXT NOT NULL,
            gender TEXT,
            created_at REAL NOT NULL
          );
          CREATE TABLE account_role (
            account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
            role TEXT NOT NULL,
            PRIMARY KEY (account_id, role)
          );
          CREATE INDEX account_role_by_role ON account_role(role);
          CREATE TABLE email_confirmation (
            account_id TEXT PRIMARY KEY NOT NULL REFERENCES account(id) ON DELETE CASCADE,
            email TEXT NOT NULL,
            code_hash TEXT NOT NULL,
            expires_at REAL NOT NULL,
            failed_attempts INTEGER NOT NULL DEFAULT 0
          );
          CREATE INDEX email_confirmation_by_email ON email_confirmation(email);
          CREATE TABLE login_failure (
            email TEXT PRIMARY KEY NOT NULL,
            failures INTEGER NOT NULL,
            locked_until REAL
          );
          CREATE TABLE session (
            id TEXT PRIMARY KEY NOT NULL,
            account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
            created_at REAL NOT NULL,
            revoked_at REAL
          );
          CREATE INDEX session_by_account ON session(account_id);
          CREATE TABLE refresh_token (
            token_hash TEXT PRIMARY KEY NOT NULL,
            session_id TEXT NOT NULL REFERENCES session(id) ON DELETE CASCADE,
            created_at REAL NOT NULL,
            expires_at REAL NOT NULL,
            used_at REAL
          );
          CREATE INDEX refresh_token_by_session ON refresh_token(session_id);
          CREATE TABLE session_revocation (
            session_id TEXT PRIMARY KEY NOT NULL,
            revoked_at REAL NOT NULL
          );
          CREATE INDEX session_revocation_by_time ON session_revocation(revoked_at);
          CREATE TABLE friend_request (
            id TEXT PRIMARY KEY NOT NULL,
            from_account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
            to_account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
            created_at REAL NOT NULL,
            UNIQUE (from_account_id, to_account_id)
          );
          CREATE INDEX friend_request_by_addressee ON friend_request(to_account_id);
          CREATE TABLE friendship (
            account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
            friend_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
            created_at REAL NOT NULL,
            PRIMARY KEY (account_id, friend_id)
          );
          CREATE TABLE emergency_contact (
            id TEXT PRIMARY KEY NOT NULL,
            account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            phone TEXT NOT NULL,
            channel TEXT NOT NULL,
            created_at REAL NOT NULL
          );
          CREATE INDEX emergency_contact_by_account ON emergency_contact(account_id);
          CREATE TABLE outbox (
            id TEXT PRIMARY KEY NOT NULL,
            channel TEXT NOT NULL,
            recipient TEXT NOT NULL,
            subject TEXT NOT NULL,
            body TEXT NOT NULL,
            created_at REAL NOT NULL
          );
          CREATE INDEX outbox_by_recipient ON outbox(recipient, created_at);
          CREATE INDEX outbox_by_time ON outbox(created_at);
          CREATE TABLE signing_key (
            id TEXT PRIMARY KEY NOT NULL,
            public_key BLOB NOT NULL,
            private_key BLOB NOT NULL,
            created_at REAL NOT NULL
          );
          """
      )
    }
    .add("v2-identity-complete") { db in
      // An empty password_hash marks an account that signs in only with an external provider.
      try db.execute(
        sql: """
          ALTER TABLE account ADD COLUMN phone_verified INTEGER NOT NULL DEFAULT 0;
          ALTER TABLE account ADD COLUMN disabled_at REAL;
          CREATE INDEX account_by_pending_email ON account(pending_email);
          CREATE TABLE phone_verification (
            account_id TEXT PRIMARY KEY NOT NULL REFERENCES account(id) ON DELETE CASCADE,
            phone TEXT NOT NULL,
            code_hash TEXT NOT NULL,
            sent_at REAL NOT NULL,
            expires_at REAL NOT NULL
          );
          CREATE TABLE password_reset (
            token_hash TEXT PRIMARY KEY NOT NULL,
            account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
            created_at REAL NOT NULL,
            expires_at REAL NOT NULL,
            used_at REAL
          );
          CREATE INDEX password_reset_by_account ON password_reset(account_id, created_at);
          CREATE TABLE external_login (
            provider TEXT NOT NULL,
            subject TEXT NOT NULL,
            account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
            created_at REAL NOT NULL,
            PRIMARY KEY (provider, subject)
          );
          CREATE INDEX external_login_by_account ON external_login(account_id);
          CREATE TABLE payment_method (
            id TEXT PRIMARY KEY NOT NULL,
            account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
            provider_token TEXT NOT NULL,
            brand TEXT NOT NULL,
            last4 TEXT NOT NULL,
            expiry_month INTEGER NOT NULL,
            expiry_year INTEGER NOT NULL,
            is_default INTEGER NOT NULL,
            created_at REAL NOT NULL
          );
          CREATE INDEX payment_method_by_account ON payment_method(account_id, created_at);
          CREATE TABLE pending_contact (
            id TEXT PRIMARY KEY NOT NULL,
            account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            email TEXT NOT NULL,
            created_at REAL NOT NULL,
            UNIQUE (account_id, email)
          );
          CREATE INDEX pending_contact_by_email ON pending_contact(email);
          CREATE TABLE audit_entry (
            id TEXT PRIMARY KEY NOT NULL,
            actor_id TEXT NOT NULL,
            actor_email TEXT NOT NULL,
            action TEXT NOT NULL,
            target_id TEXT NOT NULL,
            target_email TEXT NOT NULL,
            detail TEXT NOT NULL,
            at REAL NOT NULL
          );
          CREATE INDEX audit_entry_by_time ON audit_entry(at);
          CREATE INDEX audit_entry_by_target ON audit_entry(target_id, at);
          """
      )
    }
    // The events identity tells the other services (Shared/Events).
    .add("v3-identity-event-log", EventSchema.createLog)
    // `login_failure.email` holds the address's SHA-256 from now on (IdentityStore.throttleKey):
    // the rows kept in clear go, their counts starting again.
    .add("v4-login-failure-hashed") { db in
      try db.execute(sql: "DELETE FROM login_failure")
    }
    // The language the suite writes to each person in; the accounts before it get English,
    // which is what they were written in.
    .add("v5-account-language") { db in
      try db.execute(sql: "ALTER TABLE account ADD COLUMN language TEXT NOT NULL DEFAULT 'en'")
    }
    // A refresh token set aside unused when the one before it was traded again (its answer
    // lost): presenting it later ends the session, as a used one does.
    .add("v6-refresh-token-retired") { db in
      try db.execute(sql: "ALTER TABLE refresh_token ADD COLUMN retired_at REAL")
    }
    // The language an emergency contact is written to ('': the sender's).
    .add("v7-emergency-contact-language") { db in
      try db.execute(sql: "ALTER TABLE emergency_contact ADD COLUMN language TEXT NOT NULL DEFAULT ''")
    }
    // `AccountProfileChanged` for every account that had a verified phone or a card before the
    // event existed: the services that keep profiles (dispatch) learn them without asking.
    .add("v8-account-profiles-told") { db in
      let outbox = EventOutbox()
      let ids = try String.fetchAll(
        db,
        sql: "SELECT id FROM account WHERE phone_verified = 1 OR id IN (SELECT account_id FROM payment_method) ORDER BY rowid"
      )
      for id in ids {
        if let event = try IdentityStore.accountProfile(id, db) { try outbox.record(event, subjects: [id], at: Date(), in: db) }
      }
    }
}
