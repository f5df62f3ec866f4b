//! JOMINI rule tests.
