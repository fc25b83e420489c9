import BinarioDomain
import BinarioTestSupport

/// What a chaos run does: how long the load runs, how often a process dies, how many people
/// make the load, and which processes may be killed.
public struct ChaosConfiguration: Sendable {
  /// How long the load runs while processes are killed (the settling and the checks come after).
  public var duration: Duration
  /// The seconds between one restart and the next kill, drawn at random from this range.
  public var killInterval: ClosedRange<Double>
  /// Passengers: each buys tickets, adds, edits and removes subscriptions, reports where they are, uploads a
  /// board's readings, calls taxis and follows two trains.
  public var passengers: Int
  /// Taxi drivers taking the passengers' rides.
  public var drivers: Int
  /// The processes that may be killed (``RunningSuite/processNames`` by default).
  public var victims: [String]
  /// The share of calls made with a deadline of a few milliseconds (``Acknowledgement``): the
  /// suite may do what the client hears failed, and the client's retry must not do it twice.
  public var impatience: Double
  /// Seeds the choice of victims and intervals, so a run's kill sequence can be repeated.
  public var seed: UInt64
  /// After the load stops, how long writes still unanswered may take to be acknowledged and
  /// notifications to arrive, before the run gives up on them (and reports them).
  public var settleLimit: Duration

  public init(
    duration: Duration = .seconds(60),
    killInterval: ClosedRange<Double> = 2 ... 4,
    passengers: Int = 4,
    drivers: Int = 3,
    victims: [String] = RunningSuite.processNames,
    impatience: Double = 0.1,
    seed: UInt64 = 1,
    settleLimit: Duration = .seconds(120)
  ) {
    self.impatience = impatience
    self.duration = duration
    self.killInterval = killInterval
    self.passengers = passengers
    self.drivers = drivers
    self.victims = victims
    self.seed = seed
    self.settleLimit = settleLimit
  }
}
