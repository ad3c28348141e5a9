import Core
import CoreTesting
import Foundation
import ScreenRuntime
import TerminalUI

/// The kernel under load: a screen of synthetic cards, built through the real registry, loaded by the screen
/// runtime's own kernels (deadlines included), and drawn by the real painter.
enum KernelBenchmarks {
    /// Builds `count` cards' kernels over `backend`.
    static func screen(_ count: Int, backend: any Backend) throws -> [CardKernel] {
        var registry = ComponentRegistry()
        try registry.register(SyntheticCard.registration)
        let registration = try registry.registration(for: SyntheticCard.id)
        return (0..<count).map { index in
            let context = ComponentContext(
                ids: ["card": "\(index)"], backend: backend, clock: SystemClock(), timeout: .seconds(30))
            return registration.kernel(context: context)
        }
    }

    /// Loads every card concurrently (as the host does): the wall time in seconds and each card's answer.
    static func loadConcurrently(_ cards: [CardKernel]) async -> (seconds: Double, answers: [AnyInfo?]) {
        var answers = [AnyInfo?](repeating: nil, count: cards.count)
        let wall = await seconds {
            await withTaskGroup(of: (Int, AnyInfo?).self) { group in
                for (index, card) in cards.enumerated() {
                    group.addTask { (index, try? await card.load(within: .seconds(30), on: SystemClock()).get()) }
                }
                for await (index, info) in group { answers[index] = info }
            }
        }
        return (wall, answers)
    }

    /// Wall time ÷ the slowest latency (concurrent) or ÷ the sum (sequential).
    static func concurrencyRatio(_ latencies: [Duration], sequential: Bool = false) async throws -> Double {
        let cards = try screen(latencies.count, backend: LatencyBackend(latencies: latencies, clock: SystemClock()))
        let wall: Double
        if sequential {
            wall = await seconds { for card in cards { _ = await card.load(within: .seconds(30), on: SystemClock()) } }
            return wall / latencies.reduce(Duration.zero, +).seconds
        }
        wall = await loadConcurrently(cards).seconds
        return wall / (latencies.max() ?? .zero).seconds
    }

    /// One screen of `count` cards: load all, then paint the whole frame into a buffer. Seconds.
    static func scale(_ count: Int) async throws -> Double {
        try await seconds {
            let cards = try screen(count, backend: LatencyBackend(latencies: [], clock: SystemClock()))
            let answers = await loadConcurrently(cards).answers
            var blocks: [Block?] = []
            for (card, info) in zip(cards, answers) {
                blocks.append((try? await card.card(for: info.map { .info($0) } ?? .loading).get()) ?? nil)
            }
            let painter = FramePainter(
                width: 60, styler: TextStyler(colors: false), live: false, header: ["Order"]
            ) { _ in }
            let frame = painter.frame(zip(cards, blocks).map { SlotView(id: $0.id, block: $1) })
            guard frame.utf8.count > count * 100 else {
                throw BenchmarkError(message: "frame too small: \(frame.utf8.count)")
            }
        }
    }

    /// Bytes written for one card's change on a live 50-card screen ÷ bytes of the full first frame.
    static func repaintRatio() -> Double {
        let skeleton = Block.skeleton(title: "Card", lines: 1)
        var painter = FramePainter(width: 60, styler: TextStyler(colors: true), live: true, header: ["Order"]) { _ in }
        var slots = (0..<50).map { _ in SlotView(id: SyntheticCard.id, block: skeleton) }
        painter.paintFirstFrame(slots)
        let full = painter.bytesWritten
        slots[25].block = Block(title: "Card 25", rows: [Row("Synthetic", value: "#25")])
        painter.paint(slots)
        return Double(painter.bytesWritten - full) / Double(full)
    }

    /// Resolves per second on a point with 10 plugins.
    static func pluginResolvesPerSecond(duration: Double) throws -> Double {
        let (point, resolver) = PluginPoint<Int>.make(name: "bench")
        for index in 0..<10 { try point.register(index, id: "p\(index)") }
        var count = 0
        var total = 0
        let start = ContinuousClock.now
        while (ContinuousClock.now - start).seconds < duration {
            for _ in 0..<1000 { total &+= resolver.resolve().count }
            count += 1000
        }
        guard total == count * 10 else { throw BenchmarkError(message: "plugin point lost plugins") }
        return Double(count) / (ContinuousClock.now - start).seconds
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
