//! The JSON game record (docs/records.md describes it with examples): the same shape for every
//! game. `game` selects the game; `options` and `layout` are read by that game, strictly,
//! when the record is replayed.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::outcome::{Outcome, Reason};
use super::rules::{Rules, RulesetError, overrides};

/// One game as a record: the kind of game, its ruleset (a preset and overrides), the players,
/// optionally the hidden truth and a start position, the actions in notation, the stated
/// result and free metadata.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// The kind of game: `banqi` (the default); `GET /v1/game-types` lists them.
    #[serde(default = "Record::default_game")]
    pub game: String,
    /// A preset name of the game (`tcga`, `olympiad`, `taiwan`, …); the game's first preset
    /// (Banqi: `tcga`) when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<String>,
    /// Options that override the preset's, as the game defines them (an unknown option makes
    /// the record invalid).
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::games::AnyOverrides>))]
    pub options: Map<String, Value>,
    /// The players in turn order: player 1 moves first. Two or three, as the game has seats.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub players: Vec<String>,
    /// The hidden truth when the dealer or referee is known (Banqi: the piece under every
    /// square, a1 b1 … d8): flips may then omit the identity, and the validator checks every
    /// identity given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::games::AnyLayout>))]
    pub layout: Option<Value>,
    /// A position string to start from; the game's standard start when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// The actions in notation, one per ply (Banqi: `b6(K)`, `a2-a3`, `a2-a3(k)-a4`).
    pub actions: Vec<String>,
    /// The result the record claims; absent when unknown.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "optional_object"
    )]
    pub result: Option<StatedResult>,
    /// Anything else (date, event, source, time control …).
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub metadata: Map<String, Value>,
}

impl Record {
    /// A record of `actions` of `game` under `preset` with nothing else known.
    pub fn new(game: &str, preset: &str, actions: Vec<String>) -> Record {
        Record {
            game: game.to_owned(),
            preset: Some(preset.to_owned()),
            options: Map::new(),
            players: Vec::new(),
            layout: None,
            start: None,
            actions,
            result: None,
            metadata: Map::new(),
        }
    }

    /// Player `i`'s name (0-based), or "player 1", "player 2" ….
    pub fn player_name(&self, i: usize) -> String {
        self.players
            .get(i)
            .cloned()
            .unwrap_or_else(|| format!("player {}", i + 1))
    }
}

/// The record in canonical form, as JSON: the preset written out, the options as the game's
/// overrides (fields in the game's order), metadata sorted by key. Two records that mean the
/// same game have the same canonical JSON (the record store hashes it).
pub fn canonical_json<G: Rules>(record: &Record) -> Result<String, RulesetError> {
    #[derive(Serialize)]
    struct Canonical<'a, O: Serialize + Default + PartialEq> {
        game: &'a str,
        preset: &'a str,
        #[serde(skip_serializing_if = "is_default")]
        options: O,
        #[serde(skip_serializing_if = "<[String]>::is_empty")]
        players: &'a [String],
        #[serde(skip_serializing_if = "Option::is_none")]
        layout: Option<Value>,
        #[serde(skip_serializing_if = "Option::is_none")]
        start: &'a Option<String>,
        actions: &'a [String],
        #[serde(skip_serializing_if = "Option::is_none")]
        result: &'a Option<StatedResult>,
        #[serde(skip_serializing_if = "Map::is_empty")]
        metadata: &'a Map<String, Value>,
    }
    fn is_default<O: Default + PartialEq>(o: &O) -> bool {
        *o == O::default()
    }
    let layout = record.layout.as_ref().map(|v| {
        G::parse_hidden(v)
            .map(|h| G::hidden_value(&h))
            .unwrap_or_else(|_| v.clone())
    });
    let canonical = Canonical {
        game: G::NAME,
        preset: record.preset.as_deref().unwrap_or(G::PRESETS[0].name),
        options: overrides::<G>(&record.options)?,
        players: &record.players,
        layout,
        start: &record.start,
        actions: &record.actions,
        result: &record.result,
        metadata: &record.metadata,
    };
    Ok(serde_json::to_string(&canonical).expect("a record serialises"))
}

/// What a record says about how its game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct StatedResult {
    pub outcome: StatedOutcome,
    /// Why; absent when the record does not say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<Reason>,
    /// For a cycle repetition: the length of the repeated sequence (TCGA writes it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub period: Option<u32>,
}

impl StatedResult {
    /// A finished game's result with its reason.
    pub fn ended(outcome: Outcome, reason: Reason, period: Option<u32>) -> StatedResult {
        StatedResult {
            outcome: StatedOutcome::Ended(outcome),
            reason: Some(reason),
            period,
        }
    }

    pub fn ongoing() -> StatedResult {
        StatedResult {
            outcome: StatedOutcome::Ongoing,
            reason: None,
            period: None,
        }
    }
}

/// A stated outcome: the game's [`Outcome`], or `ongoing`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum StatedOutcome {
    Ended(Outcome),
    Ongoing,
}

impl StatedOutcome {
    /// The outcome code, or `ongoing`, as in JSON.
    pub fn code(self) -> String {
        match self {
            StatedOutcome::Ended(o) => o.code(),
            StatedOutcome::Ongoing => "ongoing".to_owned(),
        }
    }

    pub fn outcome(self) -> Option<Outcome> {
        match self {
            StatedOutcome::Ended(o) => Some(o),
            StatedOutcome::Ongoing => None,
        }
    }
}

impl Serialize for StatedOutcome {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            StatedOutcome::Ended(o) => o.serialize(s),
            StatedOutcome::Ongoing => s.serialize_str("ongoing"),
        }
    }
}

impl<'de> Deserialize<'de> for StatedOutcome {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<StatedOutcome, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        if s == "ongoing" {
            return Ok(StatedOutcome::Ongoing);
        }
        s.parse()
            .map(StatedOutcome::Ended)
            .map_err(serde::de::Error::custom)
    }
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for StatedOutcome {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, SchemaType, Type};
        OneOfBuilder::new()
            .item(
                ObjectBuilder::new()
                    .schema_type(SchemaType::new(Type::String))
                    .enum_values(Some(["player1", "player2", "draw", "ongoing"])),
            )
            .item(
                ObjectBuilder::new()
                    .schema_type(SchemaType::new(Type::String))
                    .pattern(Some(super::outcome::RANKING_PATTERN))
                    .description(Some(
                        "A three-seat ranking, e.g. `player2>player1=player3`.",
                    )),
            )
            .description(Some(
                "A stated outcome: an outcome (`player1`, `player2`, `draw`, or a three-seat \
                 ranking like `player2>player1=player3`), or `ongoing`.",
            ))
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for StatedOutcome {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_minimal_record_fills_the_game() {
        let r: Record = serde_json::from_str(r#"{"actions": ["b8(p)", "b6(R)"]}"#).unwrap();
        assert_eq!(r.game, "banqi");
        assert_eq!(r.preset, None);
        assert_eq!(
            serde_json::to_string(&r).unwrap(),
            r#"{"game":"banqi","actions":["b8(p)","b6(R)"]}"#
        );
        assert!(serde_json::from_str::<Record>(r#"{"actions": [], "winner": 1}"#).is_err());
    }

    #[test]
    fn stated_outcomes_read_every_code() {
        for code in [
            "player1",
            "player2",
            "draw",
            "ongoing",
            "player3>player1=player2",
        ] {
            let o: StatedOutcome = serde_json::from_value(Value::from(code)).unwrap();
            assert_eq!(o.code(), code);
        }
        assert!(serde_json::from_value::<StatedOutcome>(Value::from("won")).is_err());
    }
}

/// serde reads a struct from a JSON array too (its fields in order): `[]` would be a record
/// with every field defaulted. A record, its result and the requests that carry one are JSON
/// objects: [`Object`] reads `T` from an object only.
pub struct Object<T>(pub T);

impl<'de, T: serde::Deserialize<'de>> serde::Deserialize<'de> for Object<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Object<T>, D::Error> {
        struct ObjectOnly<T>(std::marker::PhantomData<T>);
        impl<'de, T: serde::Deserialize<'de>> serde::de::Visitor<'de> for ObjectOnly<T> {
            type Value = T;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
                T::deserialize(serde::de::value::MapAccessDeserializer::new(map))
            }
        }
        d.deserialize_map(ObjectOnly(std::marker::PhantomData))
            .map(Object)
    }
}

/// For `#[serde(deserialize_with)]` on an optional struct field: absent, `null` or an object.
pub fn optional_object<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    Ok(Option::<Object<T>>::deserialize(d)?.map(|Object(t)| t))
}

/// For `#[serde(deserialize_with)]` on a struct field: an object.
pub fn object<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    Ok(Object::<T>::deserialize(d)?.0)
}
