import Foundation
@testable import Schedulable
import Testing

/// Clears the observation store's entry for `Object`'s type, runs `scenario` on one new instance,
/// writes the observation file to a temporary directory and returns that instance's steps as the file
/// has them (the letGo tests read what the audit reads).
func writtenObservationSteps<Object: AnyObject>(
    _ make: () -> Object, _ scenario: (Object) -> Void
) throws -> [[String: Any]] {
    let name = String(describing: Object.self)
    // The store keys an observed type by its qualified name; the file lists it by its name.
    Observation.Store.shared.state.withLock { $0.types[String(reflecting: Object.self)] = nil }
    scenario(make())
    let directory = NSTemporaryDirectory() + "schedulable-steps-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = try ConfinementObservations.write(toDirectory: directory).get()
    let data = try #require(FileManager.default.contents(atPath: path))
    let file = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let types = try #require(file["types"] as? [[String: Any]])
    let type = try #require(types.first { $0["type"] as? String == name })
    let instances = try #require(type["instanceSteps"] as? [[String: Any]])
    #expect(instances.count == 1)
    return try #require(instances.first?["steps"] as? [[String: Any]])
}
