/**
 * The demo catalogue's vendors: each is a storefront owned by its own demo seller account
 * (`<handle>@vendors.stackbay.test`, the demo password), except Cinderpath Security, which belongs to
 * the demo seller Samir (seller@stackbay.test) so the seller's dashboard shows hardware, software and
 * services of one real storefront.
 */
export type DemoVendor = {
  name: string;
  /** The account's e-mail is `<handle>@vendors.stackbay.test` (the storefront's slug comes from its name). */
  handle: string;
  contact: [firstName: string, lastName: string];
  description: string;
  country: string;
  verified: boolean;
};

export const SAMIR_VENDOR = "Cinderpath Security";

export const demoVendors: DemoVendor[] = [
  {
    name: "Amberlight Consulting",
    handle: "amberlight",
    contact: ["Maya", "Okafor"],
    description:
      "Cloud migration and DevOps consultants who plan, move and run workloads for mid-sized teams.",
    country: "GB",
    verified: true,
  },
  {
    name: "Arcwright",
    handle: "arcwright",
    contact: ["Jonas", "Lindqvist"],
    description: "Engineering software for drawing, modelling and reading technical documents.",
    country: "SE",
    verified: false,
  },
  {
    name: "Brightmesh Networks",
    handle: "brightmesh",
    contact: ["Ana", "Costa"],
    description: "Transactional e-mail delivery with the deliverability tooling developers expect.",
    country: "PT",
    verified: false,
  },
  {
    name: "Cinderpath Security",
    handle: "cinderpath",
    contact: ["Samir", "Seller"],
    description:
      "Firewalls, endpoint protection and incident response for businesses that cannot afford a bad day.",
    country: "AE",
    verified: true,
  },
  {
    name: "Coldharbor Compute",
    handle: "coldharbor",
    contact: ["Eliot", "Marsh"],
    description: "Rack servers and inference nodes built, burned in and shipped from our own workshop.",
    country: "US",
    verified: true,
  },
  {
    name: "Corvane Labs",
    handle: "corvane",
    contact: ["Nadia", "Rahman"],
    description:
      "Customer tools for B2B teams: a pipeline-first CRM and a helpdesk that share one contact list.",
    country: "US",
    verified: true,
  },
  {
    name: "Driftpoint Analytics",
    handle: "driftpoint",
    contact: ["Lucas", "Moreau"],
    description: "Product analytics software and the data-warehouse work that makes it trustworthy.",
    country: "FR",
    verified: false,
  },
  {
    name: "Ferrowave Systems",
    handle: "ferrowave",
    contact: ["Hana", "Kobayashi"],
    description: "Switches, access points and power protection for offices and small data rooms.",
    country: "JP",
    verified: false,
  },
  {
    name: "Geolane",
    handle: "geolane",
    contact: ["Tariq", "Haddad"],
    description: "Geocoding and routing APIs, and the GIS data clean-up that sits behind good maps.",
    country: "NL",
    verified: false,
  },
  {
    name: "Helix Anvil",
    handle: "helixanvil",
    contact: ["Greta", "Vogel"],
    description: "Build and incident tooling for engineering teams: CI runners, build caches and on-call.",
    country: "DE",
    verified: false,
  },
  {
    name: "Ironpine Devices",
    handle: "ironpine",
    contact: ["Owen", "Gallagher"],
    description: "Workstations, thin clients and rugged gateways for offices, factories and the field.",
    country: "IE",
    verified: false,
  },
  {
    name: "Kestrelbyte",
    handle: "kestrelbyte",
    contact: ["Ines", "Navarro"],
    description: "Small, sharp tools: goal tracking, transcription and a secure file server.",
    country: "ES",
    verified: false,
  },
  {
    name: "Latticepoint",
    handle: "latticepoint",
    contact: ["Ravi", "Menon"],
    description: "Business intelligence, hosted search and data modelling for analysts and engineers.",
    country: "IN",
    verified: true,
  },
  {
    name: "Ledgerline",
    handle: "ledgerline",
    contact: ["Chloe", "Bennett"],
    description: "Spend management and currency data for finance teams.",
    country: "GB",
    verified: false,
  },
  {
    name: "Meridian Forge",
    handle: "meridianforge",
    contact: ["Pavel", "Novak"],
    description: "API design and test automation studios for teams that ship APIs.",
    country: "CZ",
    verified: false,
  },
  {
    name: "Mosswood Studio",
    handle: "mosswood",
    contact: ["Freya", "Holm"],
    description: "A small design studio that launches marketing sites for software companies.",
    country: "DK",
    verified: false,
  },
  {
    name: "Northwake Advisory",
    handle: "northwake",
    contact: ["Kwame", "Asante"],
    description: "Security assessments and SOC 2 readiness from former auditors and penetration testers.",
    country: "CA",
    verified: true,
  },
  {
    name: "Orbitide",
    handle: "orbitide",
    contact: ["Mei", "Lin"],
    description: "Uptime boards, webhook relays and log servers for operations teams.",
    country: "SG",
    verified: false,
  },
  {
    name: "Palisade Forge",
    handle: "palisadeforge",
    contact: ["Aaron", "Whitfield"],
    description: "Identity and threat intelligence for security teams.",
    country: "US",
    verified: false,
  },
  {
    name: "Pinegate Engineering",
    handle: "pinegate",
    contact: ["Chiara", "Ricci"],
    description: "Kubernetes launches, pipeline audits and network monitoring software.",
    country: "IT",
    verified: false,
  },
  {
    name: "Pylonix",
    handle: "pylonix",
    contact: ["Leon", "Brandt"],
    description: "Hardware security: FIDO2 keys and hardware security modules.",
    country: "CH",
    verified: true,
  },
  {
    name: "Quillstone",
    handle: "quillstone",
    contact: ["Amira", "Saleh"],
    description: "Document software: contracts, e-signatures and PDF editing.",
    country: "AE",
    verified: false,
  },
  {
    name: "Saltmarsh Digital",
    handle: "saltmarsh",
    contact: ["Niamh", "Byrne"],
    description: "People software, design tools and UX audits from one small digital agency.",
    country: "IE",
    verified: false,
  },
  {
    name: "Signalcrest",
    handle: "signalcrest",
    contact: ["Daniel", "Mwangi"],
    description: "SMS and voice APIs with local numbers in over 100 countries.",
    country: "KE",
    verified: false,
  },
  {
    name: "Stratowell",
    handle: "stratowell",
    contact: ["Erik", "Johansson"],
    description: "Backup and virtualisation for teams that run their own servers.",
    country: "NO",
    verified: false,
  },
  {
    name: "Tessellate Systems",
    handle: "tessellate",
    contact: ["Yusuf", "Demir"],
    description: "Network cards and NAS appliances, installed on site by our own engineers.",
    country: "TR",
    verified: false,
  },
  {
    name: "Tidewell Software",
    handle: "tidewell",
    contact: ["Laura", "Schmidt"],
    description: "Payroll and database tools for small companies.",
    country: "AT",
    verified: false,
  },
  {
    name: "Veritrace",
    handle: "veritrace",
    contact: ["Anjali", "Das"],
    description: "Identity verification by API: documents, selfies and sanctions lists.",
    country: "IN",
    verified: false,
  },
];

export const vendorEmail = (vendor: DemoVendor) => `${vendor.handle}@vendors.stackbay.test`;
export const vendorWebsite = (vendor: DemoVendor) => `https://${vendor.handle}.example`;
