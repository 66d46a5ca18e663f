import Foundation
@testable import ObjectGraph

/// The predicate table's data set: people with names in several scripts,
/// ages with nils, selfies related to some of them.
enum PredicateTable {
    struct Row {
        let entity: String
        let format: String
        let arguments: [any PredicateArgument]
        let variables: [String: any PredicateArgument]

        init(_ entity: String, _ format: String, _ arguments: any PredicateArgument..., variables: [String: any PredicateArgument] = [:]) {
            self.entity = entity
            self.format = format
            self.arguments = arguments
            self.variables = variables
        }
    }

    /// Builds the data set; returns the IDs the rows refer to.
    static func populate(_ store: Store) throws -> (acme: ObjectID, ada: ObjectID) {
        let context = ObjectContext(store: store, name: "setup")
        return try context.perform {
            let acme = try context.insert(Company.self)
            acme.name = "Acme"
            let globex = try context.insert(Company.self)
            globex.name = "Globex"
            let people: [Person] = try [
                ("Ada", 36, acme), ("ada", nil, nil), ("Émile", 12, acme), ("Zoë", 70, globex), ("Bob", 36, nil), ("", 0, nil),
            ].map { (name: String, age: Int16?, company: Company?) in
                let person = try context.insert(Person.self)
                person.name = name
                person.age = age
                person.company = company
                return person
            }
            let n1 = try context.insert(SocialNetwork.self)
            n1.name = "Network 1"
            let n2 = try context.insert(SocialNetwork.self)
            n2.name = "Instagram"
            for (name, rating, who, networks) in [
                ("Selfie 1", 1, [0, 4], [n1]), ("Selfie 2", 5, [0, 2, 3], []), ("Sunset ☀️", 9, [], [n1, n2]),
                ("selfie café", 3, [1], [n2]), ("Odd [*] name", 7, [5], []),
            ] as [(String, Int16, [Int], [SocialNetwork])] {
                let selfie = try context.insert(Selfie.self)
                selfie.name = name
                selfie.rating = rating
                selfie.people = who.map { people[$0] }
                try selfie.setObjects(networks, forKey: "socialNetworks")
            }
            try context.save()
            return (acme.objectID, people[0].objectID)
        }
    }

    static func rows(acme: ObjectID, ada: ObjectID) -> [Row] {
        [
            Row("Person", "name == \"Ada\""),
            Row("Person", "name = 'Ada'"),
            Row("Person", "name ==[c] \"ada\""),
            Row("Person", "name ==[d] \"Emile\""),
            Row("Person", "name ==[cd] \"EMILE\""),
            Row("Person", "name != \"Ada\""),
            Row("Person", "name <> \"Ada\""),
            Row("Person", "age < 36"),
            Row("Person", "age <= 36"),
            Row("Person", "age > 36"),
            Row("Person", "age >= 36"),
            Row("Person", "age =< 12"),
            Row("Person", "age => 70"),
            Row("Person", "age == nil"),
            Row("Person", "age != NULL"),
            Row("Person", "nil == age"),
            Row("Person", "NOT (age < 36)"),
            Row("Person", "!(age < 36)"),
            Row("Person", "age BETWEEN {10, 40}"),
            Row("Person", "age IN {0, 12, 70}"),
            Row("Person", "age IN %@", [36, 70]),
            Row("Person", "name IN {\"Ada\", 'Bob'}"),
            Row("Person", "name IN[c] {\"ADA\"}"),
            Row("Person", "name LIKE \"A*\""),
            Row("Person", "name LIKE[c] \"a*\""),
            Row("Person", "name LIKE \"?o?\""),
            Row("Person", "name LIKE \"*\""),
            Row("Person", "name LIKE[d] \"Emil?\""),
            Row("Person", "name LIKE[cd] \"*E\""),
            Row("Person", "name CONTAINS \"d\""),
            Row("Person", "name CONTAINS[c] \"D\""),
            Row("Person", "name CONTAINS[d] \"e\""),
            Row("Person", "name CONTAINS[cd] \"E\""),
            Row("Person", "name BEGINSWITH \"A\""),
            Row("Person", "name BEGINSWITH[c] \"a\""),
            Row("Person", "name BEGINSWITH[d] \"E\""),
            Row("Person", "name BEGINSWITH[cd] \"e\""),
            Row("Person", "name ENDSWITH \"a\""),
            Row("Person", "name ENDSWITH[c] \"A\""),
            Row("Person", "name ENDSWITH[d] \"e\""),
            Row("Person", "name ENDSWITH[cd] \"E\""),
            Row("Person", "name MATCHES \"[A-Z].*\""),
            Row("Person", "name MATCHES[c] \"a.a\""),
            Row("Person", "name MATCHES[d] \"Emile|Zoe\""),
            Row("Person", "name MATCHES[cd] \"EMILE\""),
            Row("Person", "name == \"\""),
            Row("Person", "name == %@", "Bob"),
            Row("Person", "age == %d", 36),
            Row("Person", "age > %i", 12),
            Row("Person", "age < %ld", 70),
            Row("Person", "age > %f", 35.5),
            Row("Person", "%K == \"Ada\"", "name"),
            Row("Person", "%K.name == \"Acme\"", "company"),
            Row("Person", "age > $min", variables: ["min": 30]),
            Row("Person", "name IN $names", variables: ["names": ["Zoë", "Émile"]]),
            Row("Person", "company.name == \"Acme\""),
            Row("Person", "company.name == nil"),
            Row("Person", "company == nil"),
            Row("Person", "company == %@", acme),
            Row("Person", "company != %@", acme),
            Row("Person", "TRUEPREDICATE"),
            Row("Person", "FALSEPREDICATE"),
            Row("Person", "age < 36 AND name BEGINSWITH \"É\""),
            Row("Person", "age < 36 && age > 0"),
            Row("Person", "age < 12 OR name == \"Zoë\""),
            Row("Person", "age < 12 || age > 60"),
            Row("Person", "NOT name == \"Ada\" AND NOT age == nil"),
            Row("Person", "(age < 20 OR age > 60) AND company != nil"),
            Row("Person", "ANY selfies.rating > 4"),
            Row("Person", "ALL selfies.rating > 4"),
            Row("Person", "NONE selfies.rating > 4"),
            Row("Person", "SOME selfies.name BEGINSWITH[c] \"selfie\""),
            Row("Person", "ANY selfies.name CONTAINS[cd] \"CAFE\""),
            Row("Person", "selfies.@count > 0"),
            Row("Person", "selfies.@count == 0"),
            Row("Person", "selfies.@count >= 2"),
            Row("Person", "selfies.@sum.rating > 5"),
            Row("Person", "selfies.@avg.rating < 3"),
            Row("Person", "selfies.@min.rating == 1"),
            Row("Person", "selfies.@max.rating >= 5"),
            Row("Person", "SUBQUERY(selfies, $s, $s.rating < 5).@count > 0"),
            Row("Person", "SUBQUERY(selfies, $s, $s.rating < 5 OR $s.name LIKE \"*e*ie*\").@count == 0"),
            Row("Person", "SUBQUERY(selfies, $s, ANY $s.socialNetworks.name == \"Instagram\").@count >= 1"),
            Row("Person", "SUBQUERY(selfies, $s, $s.rating > 0).@count == 2"),
            Row("Person", "SUBQUERY(selfies, $s, $s.rating > %d).@count > 0 AND age != nil", 4),
            Row("Selfie", "ANY people.name ==[c] \"ADA\""),
            Row("Selfie", "NONE people.age == nil"),
            Row("Selfie", "people.@count BETWEEN {1, 2}"),
            Row("Selfie", "ANY people == %@", ada),
            Row("Selfie", "NONE people == %@", ada),
            Row("Selfie", "people CONTAINS %@", ada),
            Row("Selfie", "NOT people CONTAINS %@", ada),
            Row("Company", "employees CONTAINS %@", ada),
            Row("Person", "company.employees CONTAINS %@", ada),
            Row("Selfie", "socialNetworks.@count > 1"),
            Row("Selfie", "rating IN {1, 3} AND NOT (name CONTAINS \"2\")"),
            Row("Selfie", "name LIKE \"*e*ie*\""),
            Row("Selfie", "ANY socialNetworks.name BEGINSWITH \"Net\""),
            Row("Selfie", "name LIKE \"*[*]*\""),
            Row("Selfie", "name CONTAINS \"*\""),
            Row("Selfie", "name CONTAINS[c] \"☀\""),
            Row("Selfie", "rating BETWEEN {%d, %d}", 3, 7),
            Row("Selfie", "5 < rating"),
            Row("Selfie", "ALL people.company.name == \"Acme\""),
        ]
    }
}
