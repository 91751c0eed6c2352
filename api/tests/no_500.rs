//! No input gives a 500 or a panic: thousands of mutated request bodies, every answer a 2xx or
//! a 4xx problem.

use actix_web::test;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use serde_json::{Value, json};

/// Strings that stress the parsers: notation fragments, odd characters, huge numbers.
const WORDS: &[&str] = &[
    "",
    " ",
    "a1",
    "d8",
    "e9",
    "a0",
    "a1-",
    "-a1",
    "a1-a1",
    "a1(K)",
    "a1(X)",
    "a1(Kk)",
    "a1-a2(k)-a3(p)-a4",
    "XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX - K1G2M2R2N2C2P5k1g2m2r2n2c2p5 0 0",
    "4/4/4/4/4/4/4/4 r - 0 0",
    "5/4/4/4/4/4/4/4 r - 0 0",
    "4/4/4/4/4/4/4/4 x - 0 0",
    "KKKK/4/4/4/4/4/4/4 r - 0 9",
    "4/4/4/4/4/4/4/4 r K99 0 0",
    "4/4/4/4/4/4/4/4 r - 99999999999 0",
    "PppcPmGrpRpCrmGpgMPRNPKnCcgnPNkM",
    "PPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPP",
    "tcga",
    "three-kingdoms",
    "three-kingdoms-recall",
    "recall",
    "i5-a5",
    "k7g/9/2P1R1c2/4M4/X7N rgb 1 p1 -/-/- --- 0 10",
    "9/9/9/9/9 --- 1 - -/-/- --- 0 0",
    "9/9/9/9/R7c rgb 1 - k1/R1r1/- -3- 0 50",
    "9/9/9/9/R7c rgb 4 - k1/R1r1/- -9- 0 50",
    "blitz",
    "player1",
    "player3",
    "暗棋",
    "\u{0}",
    "\\",
    "\"",
    "{}",
    "[]",
    "null",
    "-1",
    "1e309",
    "18446744073709551616",
];

fn random_value(rng: &mut SmallRng, depth: u32) -> Value {
    match rng.random_range(0..if depth > 2 { 5 } else { 7 }) {
        0 => Value::Null,
        1 => json!(rng.random_range(0..2) == 0),
        2 => json!(rng.random_range(-5i64..100_000)),
        3 | 4 => json!(WORDS[rng.random_range(0..WORDS.len())]),
        5 => Value::Array(
            (0..rng.random_range(0..4))
                .map(|_| random_value(rng, depth + 1))
                .collect(),
        ),
        _ => {
            let mut m = serde_json::Map::new();
            for _ in 0..rng.random_range(0..3) {
                m.insert(
                    WORDS[rng.random_range(0..WORDS.len())].to_owned(),
                    random_value(rng, depth + 1),
                );
            }
            Value::Object(m)
        }
    }
}

/// Replaces a random leaf or field of `v`, or drops one.
fn mutate(v: &mut Value, rng: &mut SmallRng) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            let keys: Vec<String> = m.keys().cloned().collect();
            let k = &keys[rng.random_range(0..keys.len())];
            match rng.random_range(0..4) {
                0 => {
                    m.remove(k);
                }
                1 => {
                    m.insert(k.clone(), random_value(rng, 0));
                }
                _ => mutate(m.get_mut(k).unwrap(), rng),
            }
        }
        Value::Array(a) if !a.is_empty() => {
            let i = rng.random_range(0..a.len());
            if rng.random_range(0..3) == 0 {
                a.remove(i);
            } else {
                mutate(&mut a[i], rng);
            }
        }
        _ => *v = random_value(rng, 0),
    }
}

#[actix_web::test]
async fn mutated_requests_never_get_a_500() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-no500");
    let url = records::store::test_databases(&dir, "no500").remove(0);
    let settings = api::Settings {
        store: Some(records::store::Store::open(&url).unwrap()),
        ..api::Settings::default()
    };
    let app = test::init_service(api::app(settings)).await;
    // Start from every JSON request example of the document.
    let doc = api::openapi::document();
    let mut seeds: Vec<(String, Value)> = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        let media = &item["post"]["requestBody"]["content"]["application/json"];
        if let Some(example) = media["example"].as_object() {
            seeds.push((path.clone(), Value::Object(example.clone())));
        }
        for named in media["examples"]
            .as_object()
            .into_iter()
            .flat_map(|m| m.values())
        {
            seeds.push((path.clone(), named["value"].clone()));
        }
    }
    assert!(seeds.len() >= 17, "{}", seeds.len());
    let mut rng = SmallRng::seed_from_u64(20261122);
    let mut seen = std::collections::BTreeMap::new();
    for round in 0..3000 {
        let (path, seed) = &seeds[round % seeds.len()];
        let mut body = seed.clone();
        for _ in 0..rng.random_range(1..4) {
            mutate(&mut body, &mut rng);
        }
        let text = body.to_string();
        let req = test::TestRequest::post()
            .uri(path)
            .insert_header(("content-type", "application/json"))
            .set_payload(text.clone())
            .to_request();
        let res = test::call_service(&app, req).await;
        let status = res.status().as_u16();
        assert!(status < 500, "{path} {text}: {status}");
        *seen.entry(status).or_insert(0u32) += 1;
        if status >= 400 {
            let ctype = res
                .headers()
                .get("content-type")
                .unwrap()
                .to_str()
                .unwrap()
                .to_owned();
            assert_eq!(ctype, "application/problem+json", "{path} {text}");
        }
    }
    // The mutations reach past the parsers: successes, malformed and illegal inputs alike.
    for status in [200, 400, 422] {
        assert!(seen.get(&status).copied().unwrap_or(0) > 50, "{seen:?}");
    }
}
