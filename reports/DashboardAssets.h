#pragma once
// The static files of every dashboard site: the pages (SITE/NAME.html) and SITE/assets/NAME, the pages'
// scripts and style from reports/site/ and the charting library (dygraphs, from Debian's libjs-dygraphs, with
// its copyright), compiled into the binary at build time (cmake/EmbedSite.cmake) so that nothing is fetched
// when a site is written or opened.
#include <span>
#include <string_view>

namespace gpueff::reports::dashboard {

struct SiteAsset {
    std::string_view name; // relative to SITE: "index.html", "assets/common.js"
    std::string_view bytes;
};

std::span<const SiteAsset> siteAssets();

} // namespace gpueff::reports::dashboard
