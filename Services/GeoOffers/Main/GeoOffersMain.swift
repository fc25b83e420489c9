// The geo-offers executable. Its command line and wiring are the library GeoOffersProcess, so that the
// container image links them from its one shared library (deploy/image).
import GeoOffersProcess

@main extension GeoOffersCommand {}
