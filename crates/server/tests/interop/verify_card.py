"""Verifies the server's agent card signature with the official A2A 1.x SDK (a2a-sdk 1.3.0,
`a2a.utils.signing`, PyJWT), as a client would: the card resolver fetches the card, the
verifier fetches the public key from the protected header's `jku`, and checks ES256 over the
RFC 8785 canonical form. Then a tampered card must be refused.

Usage: python verify_card.py BASE_URL   (prints "verified: ..." lines, exits non-zero on failure)
"""

import asyncio
import copy
import sys

import httpx
from a2a.client.card_resolver import A2ACardResolver, parse_agent_card
from a2a.utils.signing import InvalidSignaturesError, create_signature_verifier
from jwt.api_jwk import PyJWKSet


async def main(base: str) -> None:
    async with httpx.AsyncClient(timeout=10) as http:
        def key_provider(kid, jku):
            # The verifier runs synchronously; fetch the JWK Set the header names.
            assert jku and jku.startswith(base), f"jku {jku!r} is not this server's"
            keys = PyJWKSet.from_dict(httpx.get(jku, timeout=10).json())
            for key in keys.keys:
                if key.key_id == kid:
                    return key
            raise AssertionError(f"no key {kid!r} in {jku}")

        verify = create_signature_verifier(key_provider, algorithms=["ES256"])
        resolver = A2ACardResolver(http, base)
        for label, headers in (("1.0 card", {"A2A-Version": "1.0"}), ("card without a version header", {})):
            card = await resolver.get_agent_card(
                http_kwargs={"headers": headers}, signature_verifier=verify
            )
            print(f"verified: {label} ({card.name}, {len(card.skills)} skills, {len(card.signatures)} signature)")

        raw = (await http.get(f"{base}/.well-known/agent-card.json", headers={"A2A-Version": "1.0"})).json()
        for field, value in (("description", "A different agent"), ("version", "9.9.9")):
            tampered = copy.deepcopy(raw)
            tampered[field] = value
            try:
                verify(parse_agent_card(tampered))
            except InvalidSignaturesError:
                print(f"refused: card with a changed {field}")
            else:
                raise AssertionError(f"a card with a changed {field} verified")
        tampered = copy.deepcopy(raw)
        tampered["skills"] = tampered["skills"][1:]
        try:
            verify(parse_agent_card(tampered))
        except InvalidSignaturesError:
            print("refused: card with a skill removed")
        else:
            raise AssertionError("a card with a skill removed verified")


asyncio.run(main(sys.argv[1].rstrip("/")))
