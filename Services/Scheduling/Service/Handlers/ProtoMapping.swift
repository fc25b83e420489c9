import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import SwiftProtobuf

// Domain values as proto messages, and back. Instants are Timestamps; dates `YYYY-MM-DD`.

extension Binario_Scheduling_V1_Station {
  init(_ station: Station) {
    self.init()
    stationID = station.id
    code = station.code
    name = station.name
    latitude = station.latitude
    longitude = station.longitude
  }
}

extension Binario_Scheduling_V1_Line {
  init(_ line: Line) {
    self.init()
    lineID = line.id
    shortName = line.shortName
    longName = line.longName
  }
}

extension Binario_Scheduling_V1_RunRef {
  init(tripID: String, serviceDate: ServiceDate) {
    self.init()
    self.tripID = tripID
    self.serviceDate = serviceDate.description
  }
}

extension Binario_Scheduling_V1_Run {
  /// The run with its stops, all of them or those from stop `sequence` on.
  init(_ run: LiveRun, fromSequence first: Int = .min) {
    self.init()
    self.run = Binario_Scheduling_V1_RunRef(tripID: run.tripID, serviceDate: run.serviceDate)
    trainNumber = run.state.run.trainNumber
    line = run.line.shortName
    lineName = run.line.longName
    headsign = run.headsign
    cancelled = run.state.isCancelled
    stops = run.state.stops.filter { $0.planned.sequence >= first }.map { stop in
      .with {
        $0.sequence = Int32(stop.planned.sequence)
        let stationID = stop.planned.stationID
        $0.station = run.stations[stationID].map(Binario_Scheduling_V1_Station.init) ?? .with { $0.stationID = stationID }
        $0.scheduledArrival = Google_Protobuf_Timestamp(date: run.instant(stop.planned.arrival))
        $0.scheduledDeparture = Google_Protobuf_Timestamp(date: run.instant(stop.planned.departure))
        $0.expectedArrival = Google_Protobuf_Timestamp(date: run.instant(stop.expectedArrival))
        $0.expectedDeparture = Google_Protobuf_Timestamp(date: run.instant(stop.expectedDeparture))
        $0.scheduledPlatform = stop.planned.platform
        $0.platform = stop.platform
        $0.platformChanged = stop.platformChanged
        $0.delayMinutes = Int32(stop.delayMinutes)
        $0.cancelled = stop.cancelled
      }
    }
  }
}

extension Binario_Scheduling_V1_Journey {
  init(_ journey: Journey) {
    self.init()
    legs = journey.legs.map { leg in
      .with {
        $0.run = Binario_Scheduling_V1_Run(leg.run)
        $0.boardSequence = Int32(leg.boardSequence)
        $0.alightSequence = Int32(leg.alightSequence)
      }
    }
    departure = Google_Protobuf_Timestamp(date: journey.departure)
    arrival = Google_Protobuf_Timestamp(date: journey.arrival)
  }
}

extension Binario_Scheduling_V1_RunChange {
  init(_ change: RecordedRunChange) {
    self.init()
    changeID = change.id
    run = Binario_Scheduling_V1_RunRef(tripID: change.tripID, serviceDate: change.serviceDate)
    switch change.kind {
    case .delay(let from, let minutes):
      delay = .with {
        $0.fromSequence = Int32(from)
        $0.minutes = Int32(minutes)
      }
    case .platform(let sequence, let platform):
      platformChange = .with {
        $0.sequence = Int32(sequence)
        $0.platform = platform
      }
    case .cancellation(let from):
      cancellation = .with { $0.fromSequence = Int32(from) }
    }
    reason = change.reason
    changedBy = change.changedBy
    changedAt = Google_Protobuf_Timestamp(date: change.changedAt)
  }
}

extension RunStopInput {
  init(_ stop: Binario_Scheduling_V1_PlannedStop) {
    self.init(stationID: stop.stationID, platform: stop.platform, arrival: stop.arrival, departure: stop.departure)
  }
}

// MARK: - Notifications

extension Binario_Scheduling_V1_Notification {
  /// In the language the call asked for: an inbox is read in the app's language.
  init(_ notification: UserNotification, language: Language = RequestLanguage.current) {
    self.init()
    notificationID = notification.id
    kind = notification.content.kind.proto
    title = notification.content.title.text(in: language)
    body = notification.content.body.text(in: language)
    data = notification.content.data
    createdAt = Google_Protobuf_Timestamp(date: notification.createdAt)
    read = notification.read
    cursor = notification.cursor
  }
}

extension Binario_Scheduling_V1_NotificationPreferences {
  /// The channels and every topic, chosen or by default.
  init(_ preferences: DeliveryPreferences) {
    self.init()
    push = preferences.push
    email = preferences.email
    sms = preferences.sms
    topics = NotificationTopic.allCases.map { topic in
      let chosen = preferences.topic(topic)
      return .with {
        $0.topic = Binario_Scheduling_V1_NotificationTopic(topic)
        $0.receive = chosen.receive
        $0.push = chosen.push
        $0.email = chosen.email
        $0.sms = chosen.sms
      }
    }
  }

  /// The preferences asked for; `INVALID_ARGUMENT` naming a topic that is unspecified or twice.
  func domain() throws -> DeliveryPreferences {
    var preferences = DeliveryPreferences(push: push, email: email, sms: sms)
    for (index, wanted) in topics.enumerated() {
      guard let topic = NotificationTopic(wanted.topic) else {
        throw ServiceError.invalid("preferences.topics[\(index)].topic", "a topic (train changes, deals, welcomes, tickets, trips or taxi)")
      }
      guard preferences.topics[topic] == nil else {
        throw ServiceError.invalid("preferences.topics[\(index)].topic", "each topic once")
      }
      preferences.topics[topic] = TopicPreference(receive: wanted.receive, push: wanted.push, email: wanted.email, sms: wanted.sms)
    }
    return preferences
  }
}

extension Binario_Scheduling_V1_NotificationTopic {
  init(_ topic: NotificationTopic) {
    switch topic {
    case .trainChanges: self = .trainChanges
    case .deals: self = .deals
    case .welcomes: self = .welcomes
    case .tickets: self = .tickets
    case .trips: self = .trips
    case .taxi: self = .taxi
    case .airQuality: self = .airQuality
    }
  }
}

extension NotificationTopic {
  init?(_ topic: Binario_Scheduling_V1_NotificationTopic) {
    switch topic {
    case .trainChanges: self = .trainChanges
    case .deals: self = .deals
    case .welcomes: self = .welcomes
    case .tickets: self = .tickets
    case .trips: self = .trips
    case .taxi: self = .taxi
    case .airQuality: self = .airQuality
    case .unspecified, .UNRECOGNIZED: return nil
    }
  }
}

extension PushPlatform {
  init?(_ platform: Binario_Scheduling_V1_PushPlatform) {
    switch platform {
    case .fcm: self = .fcm
    case .apns: self = .apns
    case .webPush: self = .webPush
    case .unspecified, .UNRECOGNIZED: return nil
    }
  }

  var proto: Binario_Scheduling_V1_PushPlatform {
    switch self {
    case .fcm: .fcm
    case .apns: .apns
    case .webPush: .webPush
    }
  }
}

extension Binario_Scheduling_V1_PushDevice {
  init(_ device: PushDevice) {
    self.init()
    deviceID = device.id
    platform = device.platform.proto
    token = device.token
    name = device.name
    registeredAt = Google_Protobuf_Timestamp(date: device.registeredAt)
  }
}

extension Binario_Scheduling_V1_Delivery {
  init(_ delivery: Delivery) {
    self.init()
    deliveryID = delivery.id
    channel =
      switch delivery.channel {
      case .push: .push
      case .email: .email
      case .sms: .sms
      }
    userID = delivery.userID
    notificationID = delivery.notificationID
    address = delivery.address
    title = delivery.title
    body = delivery.body
    sentAt = Google_Protobuf_Timestamp(date: delivery.sentAt)
  }
}

// MARK: - Itineraries

extension Binario_Scheduling_V1_Itinerary {
  /// Without members, invites or events.
  init(summary itinerary: Itinerary) {
    self.init()
    itineraryID = itinerary.id
    name = itinerary.name
    destination = itinerary.destination
    startDate = itinerary.startDate.description
    endDate = itinerary.endDate.description
    estimatedCost = Binario_Type_V1_Money(itinerary.estimatedCost)
    status = itinerary.status == .active ? .active : .deleted
    organiserUserID = itinerary.organiserID
    createdAt = Google_Protobuf_Timestamp(date: itinerary.createdAt)
  }

  init(_ details: ItineraryDetails) {
    self.init(summary: details.itinerary)
    members = details.members.map { member in
      .with {
        $0.userID = member.userID
        $0.displayName = member.displayName
        $0.organiser = member.organiser
        $0.costShare = Binario_Type_V1_Money(member.costShare)
        $0.email = member.email
      }
    }
    let organiser = details.people[details.itinerary.organiserID]
    invites = details.invites.map { invite in
      var shown = Binario_Scheduling_V1_ItineraryInvite(invite)
      shown.inviteeName = details.people[invite.inviteeUserID]?.displayName ?? ""
      if shown.inviteeEmail.isEmpty { shown.inviteeEmail = details.people[invite.inviteeUserID]?.email ?? "" }
      shown.invitedByUserID = details.itinerary.organiserID
      shown.invitedByName = organiser?.displayName ?? ""
      return shown
    }
    events = details.events.map { Binario_Scheduling_V1_ItineraryEvent($0, ride: details.trainLegs[$0.id]) }
  }
}

extension Binario_Scheduling_V1_ItineraryInvite {
  init(_ invite: ItineraryInvite) {
    self.init()
    inviteID = invite.id
    itineraryID = invite.itineraryID
    inviteeUserID = invite.inviteeUserID
    inviteeEmail = invite.inviteeEmail
    status =
      switch invite.status {
      case .pending: .pending
      case .accepted: .accepted
      case .rejected: .rejected
      case .left: .left
      }
    invitedAt = Google_Protobuf_Timestamp(date: invite.invitedAt)
    if let answered = invite.answeredAt { answeredAt = Google_Protobuf_Timestamp(date: answered) }
    awaitsFriendship = invite.awaitsFriendship
  }
}

extension Binario_Scheduling_V1_ItineraryEvent {
  init(_ event: ItineraryEvent, ride: ItineraryTrainLeg? = nil) {
    self.init()
    if let train = event.train {
      self.train = .with {
        $0.tripID = train.tripID
        $0.serviceDate = train.serviceDate.description
        $0.fromStationID = train.fromStationID
        $0.toStationID = train.toStationID
        $0.ticketID = train.ticketID
        if let ride { $0.ride = Binario_Scheduling_V1_ItineraryTrainRide(ride) }
      }
    }
    eventID = event.id
    title = event.title
    place = event.place
    latitude = event.latitude
    longitude = event.longitude
    startsAt = Google_Protobuf_Timestamp(date: event.startsAt)
    endsAt = Google_Protobuf_Timestamp(date: event.endsAt)
    notes = event.notes
    cost = Binario_Type_V1_Money(event.cost)
    createdBy = event.createdBy
  }
}

extension ItineraryEventDraft {
  init(_ event: Binario_Scheduling_V1_ItineraryEvent) throws {
    self.init(
      title: event.title,
      place: event.place,
      latitude: event.latitude,
      longitude: event.longitude,
      startsAt: event.hasStartsAt ? event.startsAt.date : nil,
      endsAt: event.hasEndsAt ? event.endsAt.date : nil,
      notes: event.notes,
      cost: event.cost.money,
      train: try event.hasTrain ? ItineraryTrain(event.train) : nil
    )
  }
}

extension ItineraryTrain {
  init(_ train: Binario_Scheduling_V1_ItineraryTrain) throws {
    guard let date = ServiceDate(iso: train.serviceDate) else {
      throw ServiceError.invalid("event.train.service_date", "a date as YYYY-MM-DD, not \"\(train.serviceDate)\"")
    }
    self.init(
      tripID: train.tripID.trimmingCharacters(in: .whitespaces),
      serviceDate: date,
      fromStationID: train.fromStationID.trimmingCharacters(in: .whitespaces),
      toStationID: train.toStationID.trimmingCharacters(in: .whitespaces),
      ticketID: train.ticketID.trimmingCharacters(in: .whitespaces)
    )
  }
}

extension Binario_Scheduling_V1_ItineraryTrainRide {
  init(_ leg: ItineraryTrainLeg) {
    self.init()
    trainNumber = leg.trainNumber
    line = leg.line
    fromStationName = leg.fromStation.name
    toStationName = leg.toStation.name
    scheduledDeparture = Google_Protobuf_Timestamp(date: leg.scheduledDeparture)
    scheduledArrival = Google_Protobuf_Timestamp(date: leg.scheduledArrival)
    expectedDeparture = Google_Protobuf_Timestamp(date: leg.expectedDeparture)
    expectedArrival = Google_Protobuf_Timestamp(date: leg.expectedArrival)
    delayMinutes = Int32(leg.delayMinutes)
    platform = leg.platform
    platformChanged = leg.platformChanged
    cancelled = leg.cancelled
  }
}

// MARK: - Itinerary expenses

extension ItineraryExpense.Split {
  init(_ proto: Binario_Scheduling_V1_SplitMethod) {
    switch proto {
    case .shares: self = .shares
    case .percentages: self = .percentages
    case .exact: self = .exact
    case .equal, .unspecified, .UNRECOGNIZED: self = .equal
    }
  }

  var proto: Binario_Scheduling_V1_SplitMethod {
    switch self {
    case .equal: return .equal
    case .shares: return .shares
    case .percentages: return .percentages
    case .exact: return .exact
    }
  }
}

extension ItineraryExpenseDraft {
  init(_ expense: Binario_Scheduling_V1_ItineraryExpense) {
    self.init(
      description: expense.description_p,
      amountMinor: expense.amount.amountMinor,
      currency: expense.amount.currency,
      paidBy: expense.paidByUserID,
      split: ItineraryExpense.Split(expense.split),
      parts: expense.shares.map { ($0.userID, $0.value) },
      eventID: expense.eventID,
      settlement: expense.settlement,
      spentAt: expense.hasSpentAt ? expense.spentAt.date : nil
    )
  }
}

extension Binario_Scheduling_V1_ItineraryExpense {
  /// `names` by user id; someone not in it has left the suite.
  init(_ expense: ItineraryExpense, names: [String: String]) {
    self.init()
    expenseID = expense.id
    description_p = expense.description
    amount = Binario_Type_V1_Money(expense.amount)
    paidByUserID = expense.paidBy
    paidByName = names[expense.paidBy] ?? ""
    split = expense.split.proto
    shares = expense.shares.map { share in
      .with {
        $0.userID = share.userID
        $0.value = share.value
        $0.amount = Binario_Type_V1_Money(share.amount)
        $0.displayName = names[share.userID] ?? ""
      }
    }
    eventID = expense.eventID ?? ""
    settlement = expense.settlement
    spentAt = Google_Protobuf_Timestamp(date: expense.spentAt)
    createdBy = expense.createdBy
    createdAt = Google_Protobuf_Timestamp(date: expense.createdAt)
  }
}
