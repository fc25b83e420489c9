import BinarioDomain
import Foundation

/// Money spent on a trip: who paid, how much, and the people it was for, each with their part.
public struct ItineraryExpense: Sendable, Hashable {
  /// How the amount is divided.
  public enum Split: String, Sendable, Hashable {
    /// Equal parts; a remainder's minor units go to the first listed.
    case equal
    /// In proportion to each one's weight.
    case shares
    /// Each one's hundredths of a percent, adding up to 10,000.
    case percentages
    /// Each one's amount in minor units, adding up to the amount.
    case exact
  }

  /// One person's part: the value as given (a weight, basis points or minor units) and what it
  /// comes to.
  public struct Share: Sendable, Hashable {
    public var userID: String
    public var value: Int64
    public var amount: Money

    public init(userID: String, value: Int64, amount: Money) {
      self.userID = userID
      self.value = value
      self.amount = amount
    }
  }

  public var id: String
  public var itineraryID: String
  public var description: String
  public var amount: Money
  public var paidBy: String
  public var split: Split
  public var shares: [Share]
  /// The event it paid for, if any.
  public var eventID: String?
  /// A transfer made to settle up.
  public var settlement: Bool
  public var spentAt: Date
  public var createdBy: String
  public var createdAt: Date

  public init(
    id: String,
    itineraryID: String,
    description: String,
    amount: Money,
    paidBy: String,
    split: Split,
    shares: [Share],
    eventID: String?,
    settlement: Bool,
    spentAt: Date,
    createdBy: String,
    createdAt: Date
  ) {
    self.id = id
    self.itineraryID = itineraryID
    self.description = description
    self.amount = amount
    self.paidBy = paidBy
    self.split = split
    self.shares = shares
    self.eventID = eventID
    self.settlement = settlement
    self.spentAt = spentAt
    self.createdBy = createdBy
    self.createdAt = createdAt
  }

  /// `amount` divided among `parts` (user id and value) by `split`, exactly: the parts add up to
  /// the amount in minor units. Shares and percentages go by largest remainder (ties to the first
  /// listed); `nil` and the reason when the values cannot divide it (percentages not adding up to
  /// 100 %, exact amounts not adding up to the amount, a weight not positive).
  public static func divide(_ amount: Money, by split: Split, among parts: [(userID: String, value: Int64)]) -> Result<[Share], DivisionProblem> {
    guard !parts.isEmpty else { return .failure(.nobody) }
    switch split {
    case .equal:
      return .success(zip(parts, amount.split(into: parts.count)).map { Share(userID: $0.userID, value: 0, amount: $1) })
    case .exact:
      let total = parts.reduce(Int64(0)) { $0 + $1.value }
      guard parts.allSatisfy({ $0.value >= 0 }) else { return .failure(.negative) }
      guard total == amount.amountMinor else { return .failure(.exactTotal(Money(amountMinor: total, currency: amount.currency))) }
      return .success(parts.map { Share(userID: $0.userID, value: $0.value, amount: Money(amountMinor: $0.value, currency: amount.currency)) })
    case .percentages:
      guard parts.allSatisfy({ $0.value >= 0 }) else { return .failure(.negative) }
      let total = parts.reduce(Int64(0)) { $0 + $1.value }
      guard total == 10_000 else { return .failure(.percentTotal(total)) }
      return .success(largestRemainder(amount, parts))
    case .shares:
      guard parts.allSatisfy({ $0.value > 0 }) else { return .failure(.weight) }
      return .success(largestRemainder(amount, parts))
    }
  }

  /// Each part `amount × value / Σ values` rounded down, then the minor units left one each to
  /// the largest remainders (ties to the first listed).
  private static func largestRemainder(_ amount: Money, _ parts: [(userID: String, value: Int64)]) -> [Share] {
    let total = parts.reduce(Int64(0)) { $0 + $1.value }
    var floors: [Int64] = []
    var remainders: [(index: Int, remainder: Int64)] = []
    for (index, part) in parts.enumerated() {
      let (quotient, remainder) = (amount.amountMinor * part.value).quotientAndRemainder(dividingBy: total)
      floors.append(quotient)
      remainders.append((index, remainder))
    }
    var left = amount.amountMinor - floors.reduce(0, +)
    for entry in remainders.sorted(by: { ($0.remainder, -$0.index) > ($1.remainder, -$1.index) }) where left > 0 {
      floors[entry.index] += 1
      left -= 1
    }
    return zip(parts, floors).map { Share(userID: $0.userID, value: $0.value, amount: Money(amountMinor: $1, currency: amount.currency)) }
  }

  /// Why parts cannot divide an amount.
  public enum DivisionProblem: Error, Sendable, Hashable {
    case nobody, negative, weight
    case percentTotal(Int64)
    case exactTotal(Money)

    public var reason: PersonText {
      switch self {
      case .nobody: return "whom the expense was for is required"
      case .negative: return "a part cannot be negative"
      case .weight: return "each share is a whole number above zero"
      case .percentTotal(let total):
        return "the percentages add up to \(PersonText.number(Double(total) / 100, digits: 2)) %, not 100 %"
      case .exactTotal(let total): return "the amounts add up to \(total), not the expense's amount"
      }
    }
  }
}

/// One person's standing in one currency on a trip.
public struct ItineraryBalance: Sendable, Hashable {
  public var userID: String
  public var paid: Money
  public var share: Money
  /// `paid - share`: positive when the others owe them.
  public var balance: Money { Money(amountMinor: paid.amountMinor - share.amountMinor, currency: paid.currency) }

  public init(userID: String, paid: Money, share: Money) {
    self.userID = userID
    self.paid = paid
    self.share = share
  }
}

/// A payment that settles up: `from` pays `to`.
public struct SettleUpTransfer: Sendable, Hashable {
  public var from: String
  public var to: String
  public var amount: Money
}

/// Balances from expenses, and the fewest transfers that bring them to zero.
public enum SettleUp {
  /// Per currency, each person who paid or had a part: paid, share and balance, in the order
  /// `people` lists them (then anyone else, by id). Every currency's balances add up to zero.
  public static func balances(_ expenses: [ItineraryExpense], people: [String]) -> [String: [ItineraryBalance]] {
    var paid: [String: [String: Int64]] = [:]
    var owed: [String: [String: Int64]] = [:]
    for expense in expenses {
      let currency = expense.amount.currency
      paid[currency, default: [:]][expense.paidBy, default: 0] += expense.amount.amountMinor
      for share in expense.shares { owed[currency, default: [:]][share.userID, default: 0] += share.amount.amountMinor }
    }
    var result: [String: [ItineraryBalance]] = [:]
    for currency in Set(paid.keys).union(owed.keys) {
      let ids = Set(paid[currency, default: [:]].keys).union(owed[currency, default: [:]].keys)
      let ordered = people.filter(ids.contains) + ids.subtracting(people).sorted()
      result[currency] = ordered.map {
        ItineraryBalance(
          userID: $0,
          paid: Money(amountMinor: paid[currency]?[$0] ?? 0, currency: currency),
          share: Money(amountMinor: owed[currency]?[$0] ?? 0, currency: currency)
        )
      }
    }
    return result
  }

  /// The fewest transfers that bring `balances` (adding up to zero) to zero. People fall into
  /// as many groups as possible whose balances add up to zero (each group of n settles in n - 1
  /// transfers, so the most groups is the fewest transfers; found exactly over subsets for up to
  /// 16 people with a balance, greedily beyond); within a group the largest debtor pays the
  /// largest creditor until both are even.
  public static func transfers(_ balances: [ItineraryBalance]) -> [SettleUpTransfer] {
    let open = balances.filter { $0.balance.amountMinor != 0 }
    guard let currency = open.first?.balance.currency else { return [] }
    let groups = open.count <= 16 ? zeroSumGroups(open.map(\.balance.amountMinor)) : [Array(open.indices)]
    var transfers: [SettleUpTransfer] = []
    for group in groups {
      var debtors = group.map { (open[$0].userID, -open[$0].balance.amountMinor) }.filter { $0.1 > 0 }
      var creditors = group.map { (open[$0].userID, open[$0].balance.amountMinor) }.filter { $0.1 > 0 }
      while !debtors.isEmpty, !creditors.isEmpty {
        debtors.sort { ($0.1, $1.0) > ($1.1, $0.0) }
        creditors.sort { ($0.1, $1.0) > ($1.1, $0.0) }
        let amount = min(debtors[0].1, creditors[0].1)
        transfers.append(SettleUpTransfer(from: debtors[0].0, to: creditors[0].0, amount: Money(amountMinor: amount, currency: currency)))
        debtors[0].1 -= amount
        creditors[0].1 -= amount
        debtors.removeAll { $0.1 == 0 }
        creditors.removeAll { $0.1 == 0 }
      }
    }
    return transfers
  }

  /// The indices of `values` (adding up to zero) in the most groups that each add up to zero:
  /// over every subset, the most zero-sum groups a subset splits into is the most of the subset
  /// less one element, plus one when the subset itself adds up to zero; an order of the elements
  /// that reaches it has its groups where its running sum returns to zero.
  static func zeroSumGroups(_ values: [Int64]) -> [[Int]] {
    let count = values.count
    let full = (1 << count) - 1
    var sums = [Int64](repeating: 0, count: full + 1)
    var most = [Int](repeating: 0, count: full + 1)
    for mask in 1 ... max(full, 1) where full > 0 {
      let low = mask.trailingZeroBitCount
      sums[mask] = sums[mask & (mask - 1)] + values[low]
      var best = 0
      var bits = mask
      while bits != 0 {
        let bit = bits.trailingZeroBitCount
        best = max(best, most[mask & ~(1 << bit)])
        bits &= bits - 1
      }
      most[mask] = best + (sums[mask] == 0 ? 1 : 0)
    }
    // Take the elements off from the full set, each time one whose removal keeps the count.
    var order: [Int] = []
    var mask = full
    while mask != 0 {
      let bonus = sums[mask] == 0 ? 1 : 0
      var bits = mask
      var chosen = mask.trailingZeroBitCount
      while bits != 0 {
        let bit = bits.trailingZeroBitCount
        if most[mask & ~(1 << bit)] + bonus == most[mask] {
          chosen = bit
          break
        }
        bits &= bits - 1
      }
      order.append(chosen)
      mask &= ~(1 << chosen)
    }
    // Removed last is placed first: the running sum returns to zero at each group's end.
    var groups: [[Int]] = []
    var current: [Int] = []
    var running: Int64 = 0
    for index in order.reversed() {
      current.append(index)
      running += values[index]
      if running == 0 {
        groups.append(current)
        current = []
      }
    }
    if !current.isEmpty { groups.append(current) }
    return groups
  }
}
