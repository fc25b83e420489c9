@main
struct SchedulingCommand {
  static func main() {}
}
