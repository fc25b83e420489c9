import BinarioDomain
import Foundation

/// A shared trip plan: its organiser invites friends, and the members share events and cost.
public struct Itinerary: Sendable, Hashable {
  public enum Status: String, Sendable, Hashable {
    case active, deleted
  }

  public var id: String
  public var organiserID: String
  public var name: String
  public var destination: String
  public var startDate: ServiceDate
  public var endDate: ServiceDate
  public var estimatedCost: Money
  public var status: Status
  public var createdAt: Date

  public init(
    id: String,
    organiserID: String,
    name: String,
    destination: String,
    startDate: ServiceDate,
    endDate: ServiceDate,
    estimatedCost: Money,
    status: Status,
    createdAt: Date
  ) {
    self.id = id
    self.organiserID = organiserID
    self.name = name
    self.destination = destination
    self.startDate = startDate
    self.endDate = endDate
    self.estimatedCost = estimatedCost
    self.status = status
    self.createdAt = createdAt
  }
}

/// An invitation to an itinerary: to a friend, or to a contact by email until they register.
public struct ItineraryInvite: Sendable, Hashable {
  public enum Status: String, Sendable, Hashable {
    case pending, accepted, rejected
    /// Accepted, then left.
    case left
  }

  public var id: String
  public var itineraryID: String
  /// Empty while an invite by email waits for that person's account.
  public var inviteeUserID: String
  /// Set for an invite by email.
  public var inviteeEmail: String
  public var status: Status
  public var invitedAt: Date
  public var answeredAt: Date?
  /// A pending invite to a registered person who is not the organiser's friend yet: it waits,
  /// unseen by them, until they accept the friend request sent with it (declined with it).
  public var awaitsFriendship: Bool

  /// Whether the invitee sees it and can answer: pending, and not waiting for a friendship.
  public var isOpen: Bool { status == .pending && !awaitsFriendship }

  public init(
    id: String,
    itineraryID: String,
    inviteeUserID: String,
    inviteeEmail: String,
    status: Status,
    invitedAt: Date,
    answeredAt: Date?,
    awaitsFriendship: Bool = false
  ) {
    self.id = id
    self.itineraryID = itineraryID
    self.inviteeUserID = inviteeUserID
    self.inviteeEmail = inviteeEmail
    self.status = status
    self.invitedAt = invitedAt
    self.answeredAt = answeredAt
    self.awaitsFriendship = awaitsFriendship
  }
}

/// Something planned on an itinerary: a visit, a dinner, a train.
public struct ItineraryEvent: Sendable, Hashable {
  public var id: String
  public var itineraryID: String
  public var title: String
  public var place: String
  public var latitude: Double
  public var longitude: Double
  public var startsAt: Date
  public var endsAt: Date
  public var notes: String
  public var cost: Money
  public var createdBy: String
  /// Set when the event is a ride on a train of the timetable.
  public var train: ItineraryTrain?

  public init(
    id: String,
    itineraryID: String,
    title: String,
    place: String,
    latitude: Double,
    longitude: Double,
    startsAt: Date,
    endsAt: Date,
    notes: String,
    cost: Money,
    createdBy: String,
    train: ItineraryTrain? = nil
  ) {
    self.id = id
    self.itineraryID = itineraryID
    self.title = title
    self.place = place
    self.latitude = latitude
    self.longitude = longitude
    self.startsAt = startsAt
    self.endsAt = endsAt
    self.notes = notes
    self.cost = cost
    self.createdBy = createdBy
    self.train = train
  }
}

/// What an event's author writes.
public struct ItineraryEventDraft: Sendable, Hashable {
  public var title: String
  public var place: String
  public var latitude: Double
  public var longitude: Double
  public var startsAt: Date?
  public var endsAt: Date?
  public var notes: String
  public var cost: Money
  /// A train's ride: its times, place and position replace those given.
  public var train: ItineraryTrain?

  public init(
    title: String,
    place: String,
    latitude: Double,
    longitude: Double,
    startsAt: Date?,
    endsAt: Date?,
    notes: String,
    cost: Money,
    train: ItineraryTrain? = nil
  ) {
    self.title = title
    self.place = place
    self.latitude = latitude
    self.longitude = longitude
    self.startsAt = startsAt
    self.endsAt = endsAt
    self.notes = notes
    self.cost = cost
    self.train = train
  }
}

/// An itinerary as one of its people sees it: members with their cost shares, invites, events.
public struct ItineraryDetails: Sendable {
  public struct Member: Sendable, Hashable {
    public var userID: String
    public var displayName: String
    public var organiser: Bool
    public var costShare: Money
    public var email: String
  }

  public var itinerary: Itinerary
  /// The organiser first, then members in the order they joined.
  public var members: [Member]
  /// Every invite for the organiser; a member's own only.
  public var invites: [ItineraryInvite]
  /// By start time.
  public var events: [ItineraryEvent]
  /// The accounts of the members and invitees, by id: their names and emails.
  public var people: [String: PeerAccount]
  /// The train events' rides, live, by event id.
  public var trainLegs: [String: ItineraryTrainLeg]
}
