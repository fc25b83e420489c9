import BinarioProto
import Foundation
import HTTPTypes
import Hummingbird
import SwiftProtobuf

/// "Keep me signed in" for a browser: the refresh token kept in a cookie page scripts cannot
/// read, which this door sets and reads so that the web app never holds it.
///
/// - Opting in: a sign-in (`POST /v1/sessions`, `/v1/sessions:google`) with the ``optIn``
///   header answers its tokens without the refresh token, which goes in a cookie instead:
///   `HttpOnly` (no script reads it), `Secure`, `SameSite=Strict` (no other site's page sends
///   it), `Path=/v1/sessions:refresh` (no other request carries it), expiring with the token.
/// - Refreshing: `POST /v1/sessions:refresh` with the header and an empty body trades the
///   cookie's token; the new one replaces the cookie. A refused trade clears it.
/// - Signing out: a successful `DELETE /v1/sessions/current` clears it (the session behind it is
///   revoked by identity as before).
///
/// The header is not one CORS lets another origin send (``CrossOriginPolicy/allowedHeaders``),
/// so only the gateway's own web app can use the cookie; other clients keep the refresh token in
/// the JSON body, unchanged. `clients/web/README.md` has the threat model.
enum RefreshCookie {
  static let name = "binario_refresh"
  static let path = "/v1/sessions:refresh"
  static let optIn = HTTPField.Name("X-Keep-Signed-In")!

  static let refreshMethod = "/binario.identity.v1.Identity/Refresh"
  static let logoutMethod = "/binario.identity.v1.Identity/Logout"
  /// The methods that answer a token pair (as field 1 of their answer).
  static let signingInMethods: Set<String> = [
    "/binario.identity.v1.Identity/Login",
    "/binario.identity.v1.Identity/LoginWithGoogle",
    refreshMethod,
  ]

  /// Whether `request` to `method` asked for the cookie.
  static func asked(_ request: Request, method: String) -> Bool {
    signingInMethods.contains(method) && request.headers[optIn] == "true"
  }

  /// A refresh request's message with the cookie's token, when the body named none.
  static func refreshRequest(_ message: [UInt8], cookies: Cookies) throws -> [UInt8] {
    var refresh = try Binario_Identity_V1_RefreshRequest(serializedBytes: message)
    if refresh.refreshToken.isEmpty, let token = cookies[name]?.value {
      refresh.refreshToken = token
    }
    return try refresh.serializedBytes()
  }

  /// A signing-in answer without its refresh token, and the cookie that keeps it.
  static func takeToken(from answer: Data) throws -> (answer: Data, cookie: Cookie?) {
    // Login, LoginWithGoogle and Refresh all answer `TokenPair tokens = 1`; the rest of an
    // answer (LoginWithGoogle's `created`) stays as unknown fields and is written back as is.
    var message = try Binario_Identity_V1_LoginResponse(serializedBytes: answer)
    let token = message.tokens.refreshToken
    guard !token.isEmpty else { return (answer, nil) }
    let cookie = try Cookie.validated(
      name: name,
      value: token,
      expires: message.tokens.hasRefreshTokenExpiresAt ? message.tokens.refreshTokenExpiresAt.date : nil,
      path: path,
      secure: true,
      httpOnly: true,
      sameSite: .strict
    )
    message.tokens.refreshToken = ""
    return (try message.serializedBytes(), cookie)
  }

  /// The cookie that removes the kept token from the browser.
  static let cleared = Cookie(
    name: name,
    value: "",
    maxAge: 0,
    path: path,
    secure: true,
    httpOnly: true,
    sameSite: .strict
  )
}
