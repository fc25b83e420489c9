/// A notification to send to some users, written together with the change it is about.
public struct Notice: Sendable, Hashable {
  public var userIDs: [String]
  public var content: NotificationContent

  public init(userIDs: [String], content: NotificationContent) {
    self.userIDs = userIDs
    self.content = content
  }
}
