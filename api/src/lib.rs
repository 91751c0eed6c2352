//! The Anqi REST service: a thin HTTP edge over `records`. Stateless: every request carries
//! the position or record it is about.
//!
//! [`app`] builds the application (the binary `anqi-api` serves it; tests call it in process).

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::{App, web};
use utoipa::OpenApi;
use utoipa_swagger_ui::SwaggerUi;

pub mod body;
pub mod examples;
pub mod openapi;
pub mod problem;
pub mod routes;

pub use body::Limits;
pub use problem::Problem;

/// The application with its limits: every route, the OpenAPI document, Swagger UI at
/// `/docs/`, and problem+json for every error.
pub fn app(
    limits: Limits,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    App::new()
        .app_data(web::Data::new(limits))
        .app_data(web::PayloadConfig::new(limits.max_body))
        .app_data(
            web::QueryConfig::default()
                .error_handler(|e, _| Problem::new("bad-parameter", e.to_string()).into()),
        )
        .app_data(
            web::PathConfig::default()
                .error_handler(|e, _| Problem::new("bad-parameter", e.to_string()).into()),
        )
        .wrap(problem::catch_all())
        .configure(routes::configure)
        .service(SwaggerUi::new("/docs/{_:.*}").url("/v1/openapi.json", openapi::ApiDoc::openapi()))
        .default_service(web::to(routes::not_found))
}
