/// Work shared by every caller that asks for it under the same key while it runs (single
/// flight): the first caller starts it, the others wait, and each gets the result once.
/// When the last caller leaves early, the work is cancelled; one lock guards every flight, so
/// no caller joins a cancelled one. Once a flight ends, the next caller starts a new one.
public final class SingleFlight<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// Gets a flight's result, with how many callers joined the flight in all.
    public typealias Waiter = @Sendable (Result<Value, any Error>, _ joined: Int) -> Void

    /// One caller's place in one flight.
    public struct Place: Sendable {
        @usableFromInline let key: Key
        /// The flight, numbered like its first caller.
        @usableFromInline let flight: Int
        @usableFromInline let caller: Int
        /// Whether this caller started the flight, and so starts its work.
        public var starts: Bool { flight == caller }

        @usableFromInline init(key: Key, flight: Int, caller: Int) {
            (self.key, self.flight, self.caller) = (key, flight, caller)
        }
    }

    // Inlinable, so that another module (FetchCaching) gets code made for its own types.
    @usableFromInline struct Flight: Sendable {
        @usableFromInline let id: Int
        /// The callers still waiting, in the order they joined.
        @usableFromInline var waiters: [(caller: Int, waiter: Waiter)] = []
        @usableFromInline var joined = 0
        @usableFromInline var work: (any Cancellable)?

        @usableFromInline init(id: Int) { self.id = id }
    }

    @usableFromInline struct State: Sendable {
        @usableFromInline var flights: [Key: Flight] = [:]
        @usableFromInline var lastNumber = 0
        @usableFromInline var succeeded = 0

        @usableFromInline init() {}
    }

    @usableFromInline let state = Locked(State())

    /// Makes an empty table of flights.
    public init() {}

    /// How many flights have ended in success.
    @inlinable public var succeeded: Int { state.withLock { $0.succeeded } }

    /// How many flights are under way.
    @inlinable public var count: Int { state.withLock { $0.flights.count } }

    /// Joins the flight of `key`, or starts one when none is under way.
    /// - Returns: the caller's place; ``Place/starts`` says whether it starts the work.
    @inlinable public func join(_ key: Key, _ waiter: @escaping Waiter) -> Place {
        state.withLock { Self.enter(key, waiter, &$0) }
    }

    /// Joins the flight of `key`, or starts one, unless a flight has succeeded since ``succeeded`` was `seen`.
    /// - Returns: the caller's place; `nil` when a flight has succeeded since.
    @inlinable public func join(_ key: Key, unlessSucceededSince seen: Int, _ waiter: @escaping Waiter) -> Place? {
        state.withLock { seen == $0.succeeded ? Self.enter(key, waiter, &$0) : nil }
    }

    /// Adds a caller to the flight of `key`, made if there is none; under the lock.
    @inlinable static func enter(_ key: Key, _ waiter: @escaping Waiter, _ state: inout State) -> Place {
        state.lastNumber += 1
        let caller = state.lastNumber
        // Changed where it lies: the key is hashed once.
        func add(to flight: inout Flight) -> Int {
            flight.waiters.append((caller, waiter))
            flight.joined += 1
            return flight.id
        }
        return Place(key: key, flight: add(to: &state.flights[key, default: Flight(id: caller)]), caller: caller)
    }

    /// Keeps the handle of the work `place`'s caller started, for the last caller out; cancels it if none is left.
    @inlinable public func started(_ work: any Cancellable, for place: Place) {
        let isOver: Bool = state.withLock { state in
            guard let index = state.flights.index(forKey: place.key), state.flights.values[index].id == place.flight
            else { return true }
            state.flights.values[index].work = work
            return false
        }
        if isOver { work.cancel() }
    }

    /// Ends `place`'s flight with `result`, given to every caller still in it in the order they joined; once only.
    @inlinable public func finish(_ place: Place, with result: Result<Value, any Error>) {
        let (waiters, joined) = state.withLock { state -> ([(caller: Int, waiter: Waiter)], Int) in
            guard let flight = state.flights.removeValue(forKey: place.key) else { return ([], 0) }
            guard flight.id == place.flight else {
                state.flights[place.key] = flight
                return ([], 0)
            }
            if case .success = result { state.succeeded += 1 }
            return (flight.waiters, flight.joined)
        }
        for (_, waiter) in waiters { waiter(result, joined) }
    }

    /// Takes `place`'s caller out of its flight; the last one out ends it and cancels its work.
    /// - Returns: the caller's waiter, not called; `nil` when it already got the result.
    @inlinable public func leave(_ place: Place) -> Waiter? {
        let (waiter, work) = state.withLock { state -> (Waiter?, (any Cancellable)?) in
            guard var flight = state.flights[place.key], flight.id == place.flight,
                let index = flight.waiters.firstIndex(where: { $0.caller == place.caller })
            else { return (nil, nil) }
            let waiter = flight.waiters.remove(at: index).waiter
            state.flights[place.key] = flight.waiters.isEmpty ? nil : flight
            return (waiter, flight.waiters.isEmpty ? flight.work : nil)
        }
        work?.cancel()
        return waiter
    }
}
