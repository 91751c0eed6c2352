//! `anqi-api`: the Anqi REST service. So far it answers health and the Banqi presets; the
//! validate, play, score, deal and render endpoints come next (issue 4).

use actix_web::{App, HttpResponse, HttpServer, web};
use records::banqi::PRESETS;

async fn health() -> HttpResponse {
    HttpResponse::Ok()
        .json(serde_json::json!({"status": "ok", "version": env!("CARGO_PKG_VERSION")}))
}

async fn presets() -> HttpResponse {
    HttpResponse::Ok().json(serde_json::json!({"game": "banqi", "presets": PRESETS}))
}

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    // ANQI_ADDR overrides the address; the default serves this machine only.
    let addr = std::env::var("ANQI_ADDR").unwrap_or_else(|_| "127.0.0.1:8080".to_owned());
    let server = HttpServer::new(|| {
        App::new()
            .route("/v1/health", web::get().to(health))
            .route("/v1/presets", web::get().to(presets))
    })
    .bind(&addr)?;
    for a in server.addrs() {
        println!("anqi-api listening on http://{a}");
    }
    server.run().await
}
