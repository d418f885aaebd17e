/// What the main thread's frames looked like while the scenario ran.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // ContinuousClock, Duration
struct FrameStats: Equatable {
    /// The frame budget at 60 Hz.
    static let budget = Duration.nanoseconds(16_666_667)

    /// Frames started while the work ran.
    let frames: Int
    /// The longest time a frame started late (its gap to the previous frame minus the budget).
    let worstStall: Duration
    /// The 99th percentile of those delays.
    let p99Stall: Duration

    /// Computes the statistics of `gaps`, the durations between consecutive frame starts.
    init(gaps: [Duration]) {
        let stalls = gaps.map { max(.zero, $0 - Self.budget) }.sorted()
        frames = gaps.count
        worstStall = stalls.last ?? .zero
        if stalls.isEmpty {
            p99Stall = .zero
        } else {
            // Nearest-rank percentile: the smallest stall that at least 99 % of frames do not exceed.
            let rank = Int((Double(stalls.count) * 0.99).rounded(.up))
            p99Stall = stalls[max(0, min(stalls.count, rank) - 1)]
        }
    }

    /// Smooth when no frame was dropped: every frame started less than one frame late.
    var isSmooth: Bool { worstStall < Self.budget }

    /// One line for the results table.
    var verdict: String {
        if isSmooth {
            return "smooth: no frame dropped (worst delay < \(Self.budget.milliseconds(1)) ms)"
        }
        let dropped = Int(worstStall / Self.budget)
        return "FROZE: the UI skipped \(dropped) frames in a row (budget \(Self.budget.milliseconds(1)) ms)"
    }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // ContinuousClock, Duration
extension Duration {
    /// The duration in milliseconds, formatted with `digits` decimals.
    func milliseconds(_ digits: Int) -> String {
        let (seconds, attoseconds) = components
        let value = Double(seconds) * 1_000 + Double(attoseconds) / 1e15
        return fixedDecimals(value, digits: digits)
    }

    /// The duration in seconds, formatted with `digits` decimals.
    func seconds(_ digits: Int) -> String {
        let (seconds, attoseconds) = components
        return fixedDecimals(Double(seconds) + Double(attoseconds) / 1e18, digits: digits)
    }
}

/// `value` with exactly `digits` decimals, without Foundation's formatters.
func fixedDecimals(_ value: Double, digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = Int((value * scale).rounded())
    let whole = scaled / Int(scale)
    guard digits > 0 else { return "\(whole)" }
    let fraction = String(abs(scaled) % Int(scale))
    let sign = scaled < 0 && whole == 0 ? "-" : ""
    return "\(sign)\(whole)." + String(repeating: "0", count: digits - fraction.count) + fraction
}
