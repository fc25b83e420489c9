import BinarioDomain
import Testing

@Suite("Paging: one page-size rule and one opaque page token")
struct PagingTests {
  @Test("0 asks for the default; below 0 or above the maximum is refused naming page_size")
  func sizes() throws {
    #expect(try Paging.size(0, default: 50, maximum: 200) == 50)
    #expect(try Paging.size(200, default: 50, maximum: 200) == 200)
    for refused in [-1, 201] {
      #expect {
        try Paging.size(refused, default: 50, maximum: 200)
      } throws: { error in
        guard case .invalid(let problems) = error as? ServiceError else { return false }
        return problems.map(\.field) == ["page_size"]
      }
    }
  }

  @Test("a token gives back its cursor, whatever the parts hold; no token is the first page")
  func tokens() throws {
    let cursor = ["Caffè Centrale", "shop:1", ""]
    let token = Paging.token(after: cursor)
    #expect(!token.contains("Caff") && !token.contains("="))
    #expect(try Paging.cursor(token, parts: 3, listing: "ListShops") == cursor)
    #expect(try Paging.cursor("", parts: 3, listing: "ListShops") == nil)
  }

  @Test("a token from elsewhere is refused naming page_token")
  func foreignTokens() {
    for token in ["not base64!", Paging.token(after: ["a"]), Base64URL.encode(Array("v1:ada@example.com".utf8))] {
      #expect {
        try Paging.cursor(token, parts: 2, listing: "ListShops")
      } throws: { error in
        (error as? ServiceError) == .invalid("page_token", "this page token did not come from ListShops")
      }
    }
  }
}
