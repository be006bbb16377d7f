/**
 * Schema version 1. Column names are the wire names (spec §2), so there is no renaming layer.
 * Ids that the outside world keeps (campaigns, spots, keywords, targets, publishers) use
 * AUTOINCREMENT: a deleted id is never handed out again, so an old tracking tag or a remote
 * mapping can never point at a different record.
 */
import { CUSTOMER_FIELDS } from '../contract/models'

const customerColumns = CUSTOMER_FIELDS.map((f) => `  ${f} TEXT NOT NULL DEFAULT ''`).join(',\n')

export const SCHEMA_V1 = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE users (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  username TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  user_number TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE clients (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  client_id TEXT NOT NULL UNIQUE,
  secret_hash TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE tokens (
  token_hash TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  client_id INTEGER NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
  scope TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  refresh_hash TEXT NOT NULL,
  refresh_expires_at INTEGER NOT NULL
);
CREATE INDEX tokens_expiry ON tokens(refresh_expires_at);

CREATE TABLE advertisers (advertiser_id INTEGER PRIMARY KEY, advertiser_name TEXT NOT NULL);
CREATE TABLE brands (
  brand_id INTEGER PRIMARY KEY,
  brand_name TEXT NOT NULL,
  advertiser_id INTEGER NOT NULL REFERENCES advertisers(advertiser_id)
);
CREATE INDEX brands_advertiser ON brands(advertiser_id);
CREATE TABLE agencies (agency_id INTEGER PRIMARY KEY, agency_name TEXT NOT NULL);
CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE programs (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE plmttypes (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE extensiontypes (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE regions (
  region_id TEXT PRIMARY KEY,
  parent_id TEXT NOT NULL,
  level INTEGER NOT NULL,
  name_en TEXT NOT NULL,
  name_cn TEXT NOT NULL,
  gb_code TEXT NOT NULL
);
CREATE INDEX regions_parent ON regions(parent_id);
CREATE TABLE panels (
  panel_id TEXT PRIMARY KEY,
  panel_name TEXT NOT NULL,
  platform TEXT NOT NULL,
  released TEXT NOT NULL
);
CREATE TABLE panel_tag_types (
  panel_id TEXT NOT NULL REFERENCES panels(panel_id) ON DELETE CASCADE,
  type_id TEXT NOT NULL,
  ord INTEGER NOT NULL,
  name_en TEXT NOT NULL,
  name_cn TEXT NOT NULL,
  PRIMARY KEY (panel_id, type_id)
);
CREATE TABLE panel_tags (
  panel_id TEXT NOT NULL REFERENCES panels(panel_id) ON DELETE CASCADE,
  tag_id TEXT NOT NULL,
  type_id TEXT NOT NULL,
  ord INTEGER NOT NULL,
  name_en TEXT NOT NULL,
  name_cn TEXT NOT NULL,
  PRIMARY KEY (panel_id, tag_id)
);

CREATE TABLE campaigns (
  campaign_id INTEGER PRIMARY KEY AUTOINCREMENT,
  campaign_type TEXT NOT NULL,
  campaign_name TEXT NOT NULL UNIQUE,
  start_date TEXT NOT NULL,
  end_date TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  advertiser_id INTEGER REFERENCES advertisers(advertiser_id),
  brand_id INTEGER REFERENCES brands(brand_id),
  agency_id INTEGER REFERENCES agencies(agency_id),
  wares TEXT NOT NULL DEFAULT '',
  wares_advertiser TEXT NOT NULL DEFAULT '',
  wares_brand TEXT NOT NULL DEFAULT '',
  creator_name TEXT NOT NULL,
  slot_type TEXT NOT NULL,
  platform TEXT NOT NULL,
  calculation_type TEXT NOT NULL,
  panel_id TEXT NOT NULL REFERENCES panels(panel_id),
  panel_type TEXT NOT NULL,
  linked_siteids TEXT NOT NULL DEFAULT '',
  linked_iplib TEXT NOT NULL,
  linked_tvcaids TEXT NOT NULL DEFAULT '[]',
  order_id TEXT NOT NULL DEFAULT '',
  scheduling_code TEXT NOT NULL DEFAULT '',
  extensiontype TEXT NOT NULL DEFAULT '',
  play_detect INTEGER NOT NULL DEFAULT 0,
  ear TEXT NOT NULL,
  freq_capping INTEGER,
  frequency_limit INTEGER NOT NULL,
  ad_campaign_type TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE publishers (publisher_id INTEGER PRIMARY KEY AUTOINCREMENT, publisher_name TEXT NOT NULL UNIQUE);

CREATE TABLE spots (
  spot_id INTEGER PRIMARY KEY AUTOINCREMENT,
  campaign_id INTEGER NOT NULL REFERENCES campaigns(campaign_id) ON DELETE CASCADE,
  publisher_id INTEGER NOT NULL REFERENCES publishers(publisher_id),
  channel_name TEXT NOT NULL,
  placement_name TEXT NOT NULL,
  placement_type TEXT NOT NULL,
  program_purchasing_type TEXT NOT NULL DEFAULT '',
  program TEXT NOT NULL DEFAULT '',
  report_metrics TEXT NOT NULL,
  market TEXT NOT NULL DEFAULT '',
  adposition_type TEXT NOT NULL DEFAULT '',
  vending_model TEXT NOT NULL DEFAULT '',
  GUID TEXT NOT NULL DEFAULT '',
  CAGUID TEXT NOT NULL DEFAULT '',
  customize TEXT NOT NULL DEFAULT '',
  description TEXT NOT NULL DEFAULT '',
  landing_page TEXT NOT NULL DEFAULT '',
  referrer_url TEXT NOT NULL DEFAULT '',
  other_impr_tracking_tag TEXT NOT NULL DEFAULT '',
  shop_id TEXT NOT NULL DEFAULT '',
  freq_capping TEXT NOT NULL,
  tracking_timing TEXT NOT NULL DEFAULT '',
  linked_siteid INTEGER,
  budgetInput TEXT,
  dangerous_source_filtration INTEGER NOT NULL,
${customerColumns},
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX spots_campaign ON spots(campaign_id, spot_id);
CREATE INDEX spots_guid ON spots(campaign_id, GUID);

CREATE TABLE keywords (
  keyword_id INTEGER PRIMARY KEY AUTOINCREMENT,
  spot_id INTEGER NOT NULL REFERENCES spots(spot_id) ON DELETE CASCADE,
  keyword_name TEXT NOT NULL,
  landing_page TEXT NOT NULL DEFAULT '',
  UNIQUE (spot_id, keyword_name)
);

CREATE TABLE spot_plan (
  spot_id INTEGER NOT NULL REFERENCES spots(spot_id) ON DELETE CASCADE,
  date TEXT NOT NULL,
  est_impression INTEGER NOT NULL,
  est_click INTEGER NOT NULL,
  PRIMARY KEY (spot_id, date)
);

CREATE TABLE targets (
  target_id INTEGER PRIMARY KEY AUTOINCREMENT,
  campaign_id INTEGER NOT NULL REFERENCES campaigns(campaign_id) ON DELETE CASCADE,
  target_name TEXT NOT NULL,
  panel_id TEXT NOT NULL REFERENCES panels(panel_id),
  tag_id TEXT NOT NULL,
  UNIQUE (campaign_id, target_name)
);
`

/**
 * Schema version 2: the persons of audience panels (DESIGN §3.6, docs/panel.md). Rows are keyed
 * by panel first, WITHOUT ROWID, so that a panel reads and deletes as one range of each table.
 */
export const SCHEMA_V2 = `
CREATE TABLE panel_persons (
  panel_id TEXT NOT NULL REFERENCES panels(panel_id) ON DELETE CASCADE,
  person_id TEXT NOT NULL,
  weight REAL NOT NULL CHECK (weight > 0),
  home_region TEXT NOT NULL REFERENCES regions(region_id),
  PRIMARY KEY (panel_id, person_id)
) WITHOUT ROWID;
CREATE TABLE panel_person_tags (
  panel_id TEXT NOT NULL,
  person_id TEXT NOT NULL,
  tag_id TEXT NOT NULL,
  PRIMARY KEY (panel_id, person_id, tag_id),
  FOREIGN KEY (panel_id, person_id) REFERENCES panel_persons(panel_id, person_id) ON DELETE CASCADE,
  FOREIGN KEY (panel_id, tag_id) REFERENCES panel_tags(panel_id, tag_id)
) WITHOUT ROWID;
CREATE TABLE panel_devices (
  panel_id TEXT NOT NULL,
  person_id TEXT NOT NULL,
  device TEXT NOT NULL,
  platform TEXT NOT NULL CHECK (platform IN ('pc', 'mb')),
  PRIMARY KEY (panel_id, person_id, device),
  UNIQUE (panel_id, device),
  FOREIGN KEY (panel_id, person_id) REFERENCES panel_persons(panel_id, person_id) ON DELETE CASCADE
) WITHOUT ROWID;
`

/** Schema version 3: minisites (advertiser sites whose page events are measured), linked campaigns. */
export const SCHEMA_V3 = `
CREATE TABLE minisites (
  minisite_id INTEGER PRIMARY KEY AUTOINCREMENT,
  minisite_name TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL
);
CREATE TABLE minisite_campaigns (
  minisite_id INTEGER NOT NULL REFERENCES minisites(minisite_id) ON DELETE CASCADE,
  campaign_id INTEGER NOT NULL REFERENCES campaigns(campaign_id) ON DELETE CASCADE,
  PRIMARY KEY (minisite_id, campaign_id)
);
CREATE TABLE minisite_events (
  minisite_id INTEGER NOT NULL REFERENCES minisites(minisite_id) ON DELETE CASCADE,
  event_id INTEGER NOT NULL,
  event_name TEXT NOT NULL,
  PRIMARY KEY (minisite_id, event_id),
  UNIQUE (minisite_id, event_name)
);
`

/** Schema version 6: campaign -> linked minisites without a scan (every campaign row names them). */
export const SCHEMA_V6 = `
CREATE INDEX minisite_campaigns_campaign ON minisite_campaigns(campaign_id, minisite_id);
`
