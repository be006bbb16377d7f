/**
 * The distributions of the demo panel generator (docs/panel.md): China's internet population
 * (CNNIC, 54th statistical report, June 2024: 1.0997 billion users), the panel's recruitment
 * skew, and the conditional shares of education, marital status and income. Shares are per
 * tag, in the order of the demo panel's tags (engine/reference/demo.ts); each row sums to 1.
 */

/** China's internet users (CNNIC, June 2024): the weighted total of a generated panel. */
export const INTERNET_POPULATION = 1_099_670_000

/** Gender tags. */
export const GENDERS = ['male', 'female'] as const
/** Population shares of the genders (CNNIC: 51.2% male, 48.8% female, rounded). */
export const GENDER_POPULATION = [0.512, 0.488] as const
/** Panel recruitment: equal numbers of men and women. */
export const GENDER_SAMPLE = [0.5, 0.5] as const

/** Age band tags. */
export const AGES = ['0-17Y', '18-24Y', '25-29Y', '30-34Y', '35-39Y', '40-44Y', '45-49Y', '50-54Y', '55-64Y', '65Y-plus'] as const
/**
 * Population shares of the age bands, from CNNIC's ten-year groups (under 10 4.4%, 10-19 13.9%,
 * 20-29 13.7%, 30-39 19.2%, 40-49 16.0%, 50-59 16.4%, 60+ 15.6%) split evenly within a group.
 */
export const AGE_POPULATION = normalize([15.5, 9.6, 6.9, 9.6, 9.6, 8.0, 8.0, 8.2, 12.9, 10.9])
/** Panel recruitment skews to the 25-44 year olds, as online panels do; weights undo the skew. */
export const AGE_SAMPLE = normalize([6, 12, 14, 15, 14, 12, 9, 8, 7, 3])

/** Education tags. */
export const EDUCATIONS = ['edu-junior-high', 'edu-high-school', 'edu-college', 'edu-bachelor', 'edu-master-plus'] as const
/** Education by age band (rows in AGES order): the young are better educated. */
export const EDUCATION_BY_AGE: readonly (readonly number[])[] = [
  [0.78, 0.22, 0, 0, 0],
  [0.2, 0.32, 0.22, 0.23, 0.03],
  [0.26, 0.25, 0.2, 0.24, 0.05],
  [0.3, 0.25, 0.18, 0.22, 0.05],
  [0.38, 0.25, 0.15, 0.18, 0.04],
  [0.46, 0.25, 0.12, 0.14, 0.03],
  [0.56, 0.24, 0.09, 0.09, 0.02],
  [0.64, 0.22, 0.07, 0.06, 0.01],
  [0.7, 0.2, 0.05, 0.045, 0.005],
  [0.76, 0.16, 0.04, 0.035, 0.005],
]

/** Marital status tags. */
export const MARITAL = ['single', 'married', 'married-with-kids'] as const
/** Marital status by age band (rows in AGES order). */
export const MARITAL_BY_AGE: readonly (readonly number[])[] = [
  [1, 0, 0],
  [0.88, 0.06, 0.06],
  [0.5, 0.18, 0.32],
  [0.22, 0.16, 0.62],
  [0.1, 0.12, 0.78],
  [0.06, 0.1, 0.84],
  [0.05, 0.1, 0.85],
  [0.04, 0.12, 0.84],
  [0.03, 0.17, 0.8],
  [0.03, 0.22, 0.75],
]

/** Personal monthly income tags. */
export const INCOMES = ['inc-lt3k', 'inc-3k-5k', 'inc-5k-8k', 'inc-8k-12k', 'inc-12k-20k', 'inc-20k-plus'] as const
/** Personal monthly income by education (rows in EDUCATIONS order), before age and city shifts. */
export const INCOME_BY_EDUCATION: readonly (readonly number[])[] = [
  [0.45, 0.3, 0.15, 0.07, 0.02, 0.01],
  [0.3, 0.32, 0.22, 0.1, 0.04, 0.02],
  [0.15, 0.28, 0.3, 0.17, 0.07, 0.03],
  [0.08, 0.18, 0.28, 0.24, 0.14, 0.08],
  [0.04, 0.08, 0.18, 0.26, 0.24, 0.2],
]

/** Household monthly income tags. */
export const HOUSEHOLD_INCOMES = ['hh-lt8k', 'hh-8k-15k', 'hh-15k-25k', 'hh-25k-40k', 'hh-40k-plus'] as const
/** Household income of minors (their parents'), before the city shift. */
export const HOUSEHOLD_OF_MINORS = [0.3, 0.32, 0.22, 0.11, 0.05] as const

/** City tier tags. */
export const TIERS = ['tier-1', 'tier-new1', 'tier-2', 'tier-3', 'tier-4-5'] as const
/** A city tier tag. */
export type Tier = (typeof TIERS)[number]
/** Chance that income is one band higher (positive) or lower (negative) in a city of the tier. */
export const TIER_INCOME_SHIFT: Readonly<Record<Tier, number>> = { 'tier-1': 0.45, 'tier-new1': 0.3, 'tier-2': 0.15, 'tier-3': 0, 'tier-4-5': -0.25 }
/** Share of residents online, by city tier (CNNIC: urban areas above rural ones). */
export const TIER_PENETRATION: Readonly<Record<Tier, number>> = { 'tier-1': 0.92, 'tier-new1': 0.86, 'tier-2': 0.82, 'tier-3': 0.78, 'tier-4-5': 0.72 }

/** Devices (docs/panel.md): nearly everyone has a phone, some a second one, ~45% also a PC. */
export const DEVICE_SHARES = {
  mobile: 0.97,
  secondMobile: 0.12,
  pcWithMobile: 0.45,
  /** Operating system of a phone: iOS (IDFA); Android with an OAID, or an older one with an IMEI. */
  ios: 0.22,
  androidOaid: 0.65,
} as const

function normalize(xs: readonly number[]): readonly number[] {
  const t = xs.reduce((a, b) => a + b, 0)
  return xs.map((x) => x / t)
}
