/// The OpenAPI 3.1 document of the HTTP/JSON front door, generated from the protos with the
/// route table (`Generated/OpenAPIDocument+Generated.swift`), checked by openapi-spec-validator
/// when it is generated.
public enum OpenAPIDocument {}
