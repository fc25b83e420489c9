import BinarioDomain
import BinarioProto
import BinarioTransport
import Foundation
import GRPCCore
import SwiftProtobuf

/// ``TicketLookup`` on ticketing's internal `ListDepartingTickets`, over the Binario transport
/// with geo-offers' certificate.
public struct TicketingTickets: TicketLookup {
  let tickets: Binario_Ticketing_V1_Tickets.Client<BinarioClientTransport>
  let timeout: Duration

  public init(client: GRPCClient<BinarioClientTransport>, timeout: Duration = .seconds(2)) {
    self.tickets = Binario_Ticketing_V1_Tickets.Client(wrapping: client)
    self.timeout = timeout
  }

  public func departingTickets(userID: String, stationID: String, in window: Range<Date>) async throws -> [DepartingTicket] {
    var options = CallOptions.defaults
    options.timeout = timeout
    let response = try await tickets.listDepartingTickets(
      .with {
        $0.userID = userID
        $0.stationID = stationID
        $0.departingAfter = Google_Protobuf_Timestamp(date: window.lowerBound)
        $0.departingBefore = Google_Protobuf_Timestamp(date: window.upperBound)
      },
      options: options
    )
    return response.tickets.map { ticket in
      DepartingTicket(
        ticketID: ticket.ticketID,
        run: RunReference(tripID: ticket.journey.run.tripID, serviceDate: ticket.journey.run.serviceDate),
        trainNumber: ticket.journey.trainNumber,
        fromStationID: ticket.journey.fromStationID,
        toStationID: ticket.journey.toStationID,
        toStationName: ticket.journey.toStationName,
        scheduledDeparture: ticket.journey.scheduledDeparture.date,
        destinationStationID: ticket.destinationStationID.isEmpty ? ticket.journey.toStationID : ticket.destinationStationID
      )
    }
  }
}
