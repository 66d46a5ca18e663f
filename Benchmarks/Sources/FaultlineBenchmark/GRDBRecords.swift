import Foundation
import GRDB

/// The Selfies and Fireballs tables as a GRDB user would map them: Codable
/// records, and `hasMany(through:)` associations over the join tables.
/// The schema is Faultline's (the same file is read by every variant).
enum GRDBRecords {
    struct Person: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "Person"
        var pk: Int64
        var name: String
        static let selfieLinks = hasMany(PersonSelfie.self, using: ForeignKey(["source"], to: ["pk"]))
        static let selfies = hasMany(Selfie.self, through: selfieLinks, using: PersonSelfie.selfie)
    }

    struct Selfie: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "Selfie"
        var pk: Int64
        var name: String
        var rating: Int64
        static let personLinks = hasMany(PersonSelfie.self, using: ForeignKey(["destination"], to: ["pk"]))
        static let people = hasMany(Person.self, through: personLinks, using: PersonSelfie.person).forKey("people")
        static let networkLinks = hasMany(SelfieNetwork.self, using: ForeignKey(["source"], to: ["pk"]))
        static let socialNetworks = hasMany(SocialNetwork.self, through: networkLinks, using: SelfieNetwork.network).forKey("socialNetworks")
    }

    struct SocialNetwork: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "SocialNetwork"
        var pk: Int64
        var name: String
    }

    /// A row of the join table between people and selfies.
    struct PersonSelfie: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "Person_selfies"
        var source: Int64
        var destination: Int64
        static let person = belongsTo(Person.self, using: ForeignKey(["source"], to: ["pk"]))
        static let selfie = belongsTo(Selfie.self, using: ForeignKey(["destination"], to: ["pk"]))
    }

    /// A row of the join table between selfies and social networks.
    struct SelfieNetwork: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "Selfie_socialNetworks"
        var source: Int64
        var destination: Int64
        static let network = belongsTo(SocialNetwork.self, using: ForeignKey(["destination"], to: ["pk"]))
    }

    /// A selfie with its prefetched relationships (`including(all:)`).
    struct SelfieWithRelations: Decodable, FetchableRecord {
        var selfie: Selfie
        var socialNetworks: [SocialNetwork]
        var people: [Person]
    }

    struct Fireball: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "Fireball"
        var pk: Int64?
        var timestamp: Double
        var radiatedEnergy: Double
        var impactEnergy: Double
        var latitude: Double
        var longitude: Double
        var altitude: Double
        var velocity: Double
    }

    /// The tables, as a GRDB migration would create them (Faultline's schema).
    static func createSelfiesSchema(_ db: Database) throws {
        for table in ["Person", "SocialNetwork"] {
            try db.create(table: table) { t in
                t.primaryKey("pk", .integer)
                t.column("name", .text).notNull()
            }
        }
        try db.create(table: "Selfie") { t in
            t.primaryKey("pk", .integer)
            t.column("name", .text).notNull()
            t.column("rating", .integer).notNull()
        }
        for table in ["Person_selfies", "Selfie_socialNetworks"] {
            try db.create(table: table, options: .withoutRowID) { t in
                t.column("source", .integer).notNull()
                t.column("destination", .integer).notNull()
                t.primaryKey(["source", "destination"])
            }
            try db.create(index: "\(table)_destination", on: table, columns: ["destination", "source"])
        }
    }
}
