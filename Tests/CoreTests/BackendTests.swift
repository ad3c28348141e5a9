import Core
import CoreTesting
import Foundation
import Testing

@Suite struct EndpointTests {
    @Test(arguments: ["..", ".", "", ".hidden", "a/b", "a\\b", "x\u{0}y", String(repeating: "x", count: 129)])
    func unsafeSegmentsAreRejected(segment: String) {
        #expect(throws: BackendError.self) { try Endpoint("orders", segment, "payment.json") }
    }

    @Test func safeSegmentsJoinIntoAPath() throws {
        #expect(try Endpoint("orders", "12 34", "payment.json").path == "orders/12 34/payment.json")
    }
}
