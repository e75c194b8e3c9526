//! The cohort's pages on a small cohort ([`fixture`]): `cohort.md` read as text,
//! `cohort.html` parsed strictly as XML ([`xml`]) and run in a real browser.

mod browser;
mod fixture;
mod html;
mod markdown;
mod peers;
mod xml;
